#!/usr/bin/env python3
"""Runs localstripe (the fake of Stripe's API pinned in requirements.txt beside this file) the way
Courtside needs it (issue 33).

localstripe's own entry point (`python -m localstripe`) binds every interface ('::') and pickles its
whole store to /tmp/localstripe.pickle after every write, so two of them on one machine (a dev mesh,
a test mesh, each test's own) would read and overwrite each other's cards and payments. This
launcher imports its aiohttp application and:

  --host ADDRESS   binds this address only (127.0.0.1; 0.0.0.0 in a container)
  --port N         this port (8420)
  --store PATH     keeps the store in PATH, loaded at start and written (atomically) after each
                   POST or DELETE, so a dev mesh keeps its customers and cards across restarts;
                   without it nothing is written anywhere and every start is empty
  --webhook-url URL  sends every event to URL, signed with the secret in the environment's
                   STRIPE_WEBHOOK_SECRET (as POST /_config/webhooks/courtside would register it),
                   from every start on: localstripe keeps webhook endpoints in memory only

    deploy/.state/localstripe-venv/bin/python deploy/localstripe/run.py --port 8420

Webhook endpoints live in memory only, whatever --store says: --webhook-url registers Courtside's
at every start; others can be added with POST /_config/webhooks/<id> (url, secret).
"""

import argparse
import logging
import os
import pickle
import sys
import tempfile

from aiohttp import web
from localstripe import resources


def keep_store_in(path):
    """Makes localstripe's store live in PATH (or nowhere when PATH is None)."""
    store_class = resources.Store

    # Writes go to the dict only; the server's own middleware saves once per POST or DELETE
    # (localstripe saves on every item set, several times per request).
    store_class.__setitem__ = dict.__setitem__
    store_class.__delitem__ = dict.__delitem__

    if path is None:
        store_class.dump_to_disk = lambda self: None
        store_class.try_load_from_disk = lambda self: None
        return

    path = os.path.abspath(path)

    def try_load_from_disk(self):
        try:
            with open(path, 'rb') as f:
                old = pickle.load(f)
        except FileNotFoundError:
            return
        except (EOFError, pickle.UnpicklingError, AttributeError, ImportError) as e:
            # A store written by another localstripe version, or cut short: start empty, and say so.
            logging.getLogger('localstripe').warning(
                'ignoring the unreadable store %s (%s): starting empty', path, e)
            return
        self.clear()
        self.update(old)

    def dump_to_disk(self):
        directory = os.path.dirname(path)
        fd, tmp = tempfile.mkstemp(prefix='.localstripe-', dir=directory)
        try:
            with os.fdopen(fd, 'wb') as f:
                pickle.dump(dict(self), f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise

    store_class.try_load_from_disk = try_load_from_disk
    store_class.dump_to_disk = dump_to_disk


def attach_confirmed_cards():
    """Stripe attaches the card a customer's SetupIntent is confirmed with to that customer (so it
    lists among the customer's payment methods); localstripe 1.15.10 only notes it on the
    SetupIntent. This does what Stripe does, once the SetupIntent has succeeded."""
    setup_intent = resources.SetupIntent
    confirm = setup_intent._api_confirm.__func__

    def _api_confirm(cls, id, **kwargs):
        obj = confirm(cls, id, **kwargs)
        if obj.status == 'succeeded' and obj.customer and obj.payment_method:
            resources.PaymentMethod._api_retrieve(obj.payment_method).customer = obj.customer
        return obj

    setup_intent._api_confirm = classmethod(_api_confirm)
    # The routes are taken from this list when localstripe's server module is imported (after this).
    resources.extra_apis[:] = [
        (method, url, setup_intent._api_confirm if url == '/v1/setup_intents/{id}/confirm' else f)
        for method, url, f in resources.extra_apis]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--host', default='127.0.0.1',
                        help='address to bind (default 127.0.0.1)')
    parser.add_argument('--port', type=int, default=8420, help='port (default 8420)')
    parser.add_argument('--store', metavar='PATH',
                        help='keep the store in PATH across restarts (default: in memory only)')
    parser.add_argument('--webhook-url', metavar='URL',
                        help="send every event to URL, signed with $STRIPE_WEBHOOK_SECRET")
    args = parser.parse_args(argv)
    webhook_secret = os.environ.get('STRIPE_WEBHOOK_SECRET', '')
    if args.webhook_url and not webhook_secret:
        parser.error('--webhook-url needs STRIPE_WEBHOOK_SECRET in the environment')
    if args.webhook_url and not args.webhook_url.startswith(('http://', 'https://')):
        parser.error('--webhook-url must be an http:// or https:// URL')

    if args.store:
        os.makedirs(os.path.dirname(os.path.abspath(args.store)), exist_ok=True)
    keep_store_in(args.store)
    attach_confirmed_cards()
    # Imported after the store is patched: the server module saves through it.
    from localstripe import server

    from localstripe.webhooks import register_webhook

    resources.store.try_load_from_disk()
    if args.webhook_url:
        # Every event kind (events=None), as localstripe sends only a few.
        register_webhook('courtside', args.webhook_url, webhook_secret, None)

    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format='%(asctime)s %(name)s %(message)s')
    access_log = logging.getLogger('aiohttp.access')
    where = args.store or 'memory only'
    webhook = args.webhook_url or 'none'
    print(f'localstripe {version()} on http://{args.host}:{args.port} (store: {where}; '
          f'webhook: {webhook})', file=sys.stderr, flush=True)
    web.run_app(server.app, host=args.host, port=args.port, access_log=access_log,
                print=None, handle_signals=True)


def version():
    try:
        from importlib.metadata import version as package_version
        return package_version('localstripe')
    except Exception:  # noqa: BLE001 - a version is only printed
        return '?'


if __name__ == '__main__':
    main()
