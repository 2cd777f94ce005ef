#!/usr/bin/env python3
"""AWS SigV4 (header form) for the tests: sign() as the AWS test suite
defines it; `sigv4.py get URL [PAYLOAD_HASH]` makes a signed GET through the
proxy of the environment with AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY and
prints the status and body; netserver.py verifies with verify()."""
import hashlib
import hmac
import os
import sys
import time
import urllib.parse
import urllib.request

EMPTY = hashlib.sha256(b"").hexdigest()


def sign(method, path, query, headers, signed, payload, secret, date, scope):
    q = "&".join(sorted(p if "=" in p else p + "=" for p in query.split("&") if p))
    ch = "".join("%s:%s\n" % (h, " ".join(headers[h].split())) for h in signed)
    creq = "\n".join([method, path, q, ch, ";".join(signed), payload])
    sts = "\n".join(["AWS4-HMAC-SHA256", date, scope,
                     hashlib.sha256(creq.encode()).hexdigest()])
    k = ("AWS4" + secret).encode()
    for part in scope.split("/"):
        k = hmac.new(k, part.encode(), hashlib.sha256).digest()
    return hmac.new(k, sts.encode(), hashlib.sha256).hexdigest()


def verify(method, target, headers, secret):
    """(key id, ok) for the request's Authorization."""
    auth = headers.get("Authorization", "")
    if not auth.startswith("AWS4-HMAC-SHA256 "):
        return None, False
    parts = dict(p.strip().split("=", 1) for p in auth[17:].split(","))
    kid, scope = parts["Credential"].split("/", 1)
    signed = parts["SignedHeaders"].split(";")
    path, _, query = target.partition("?")
    low = {k.lower(): v for k, v in headers.items()}
    want = sign(method, path, query, low, signed,
                low.get("x-amz-content-sha256", EMPTY), secret,
                low["x-amz-date"], scope)
    return kid, hmac.compare_digest(want, parts["Signature"])


def main():
    url = urllib.parse.urlsplit(sys.argv[2])
    date = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    scope = date[:8] + "/us-east-1/s3/aws4_request"
    h = {"host": url.netloc, "x-amz-date": date,
         "x-amz-content-sha256": sys.argv[3] if len(sys.argv) > 3 else EMPTY}
    signed = ["host", "x-amz-content-sha256", "x-amz-date"]
    sig = sign("GET", url.path, url.query, h, signed, h["x-amz-content-sha256"],
               os.environ["AWS_SECRET_ACCESS_KEY"], date, scope)
    req = urllib.request.Request(sys.argv[2], headers={
        "X-Amz-Date": date, "X-Amz-Content-Sha256": h["x-amz-content-sha256"],
        "Authorization": "AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=%s, "
        "Signature=%s" % (os.environ["AWS_ACCESS_KEY_ID"], scope,
                          ";".join(signed), sig)})
    try:
        r = urllib.request.urlopen(req)
        print(r.status, r.read().decode().strip())
    except urllib.error.HTTPError as e:
        print(e.code)


if __name__ == "__main__":
    main()
