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
