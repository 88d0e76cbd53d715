"""Schemathesis hooks for Courtside (loaded through SCHEMATHESIS_HOOKS by run.py).

ARCHITECTURE.md: every error body is {"detail": "<a sentence a person can act on>"}.
"""

import schemathesis


@schemathesis.check
def error_has_detail(ctx, response, case):
    """Every 4xx and 5xx answer is JSON with a non-empty string `detail`."""
    if response.status_code < 400:
        return None
    try:
        body = response.json()
    except Exception as exc:  # noqa: BLE001 - any parse failure is the finding
        raise AssertionError(
            f"{response.status_code} answer is not JSON ({exc}); every error needs a JSON detail"
        ) from None
    detail = body.get("detail") if isinstance(body, dict) else None
    if not isinstance(detail, str) or not detail.strip():
        raise AssertionError(f"{response.status_code} answer has no non-empty string `detail`: {body!r:.200}")
    return None


@schemathesis.hook
def map_query(ctx, query):
    """A page's `cursor` is opaque: only the previous page's `Link` header gives a valid one, so a
    made-up cursor is refused (400) although any string fits its schema. Generated cases leave it
    out; the mesh tests follow real `Link` headers and try forged cursors."""
    if isinstance(query, dict) and "cursor" in query:
        return {name: value for name, value in query.items() if name != "cursor"}
    return query
