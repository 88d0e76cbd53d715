"""Saves a card for each of the bench's clients, as the web app does with localstripe's Stripe.js
(issue 33), so their bookings of paid coaches are accepted (a paid booking needs a saved card):

  1. POST /api/client/payment-methods/setup        -> {setup_intent_id, client_secret}
  2. POST /stripe/v1/setup_intents/{id}/confirm    the card, with the publishable key (through nginx)
  3. GET  /api/client/payment-methods              the card is there (the client's default)

    python deploy/bench/cards.py BASE_URL TOKENS_FILE

Standard library only. Exits 1, saying why, when a step fails.
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request

CARD = {"number": "4242424242424242", "exp_month": 12, "exp_year": 2034, "cvc": "123"}


def call(method: str, url: str, token: str | None = None, body: dict | None = None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            raw = r.read()
            return r.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            return e.code, json.loads(raw)
        except ValueError:
            return e.code, raw.decode(errors="replace")


def main() -> int:
    base, tokens_file = sys.argv[1], sys.argv[2]
    tokens = [t.strip() for t in open(tokens_file) if t.strip()]
    status, config = call("GET", base + "/api/payments/config")
    if status != 200:
        print(f"GET /api/payments/config answered {status}: {config}", file=sys.stderr)
        return 1
    for n, token in enumerate(tokens):
        status, setup = call("POST", base + "/api/client/payment-methods/setup", token, {})
        if status != 201:
            print(f"client {n}: POST /api/client/payment-methods/setup answered {status}: {setup}", file=sys.stderr)
            return 1
        status, intent = call(
            "POST",
            f"{base}/stripe/v1/setup_intents/{setup['setup_intent_id']}/confirm",
            body={
                "key": config["publishable_key"],
                "use_stripe_sdk": True,
                "client_secret": setup["client_secret"],
                "payment_method_data": {"type": "card", "card": CARD},
            },
        )
        if status != 200 or intent.get("status") != "succeeded":
            print(f"client {n}: localstripe's SetupIntent confirm answered {status}: {intent}", file=sys.stderr)
            return 1
        status, cards = call("GET", base + "/api/client/payment-methods", token)
        if status != 200 or not cards:
            print(f"client {n}: GET /api/client/payment-methods answered {status}: {cards}", file=sys.stderr)
            return 1
    print(f"saved a card (4242...) for each of {len(tokens)} clients")
    return 0


if __name__ == "__main__":
    sys.exit(main())
