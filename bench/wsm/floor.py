#!/usr/bin/env python3
"""floor.py BASE N: the HTTP work a state machine agent cannot avoid, done by a client that does nothing
else: for each instance in turn, GET its document and its inbox, GET the first event, PUT the document
back with If-Match (unchanged but for a counter) and DELETE the event, until every inbox is empty; one
keep-alive connection, no reasoning, no conditions, no history. Prints the events taken and the seconds."""
import http.client
import re
import sys
import time
import urllib.parse

base, n = sys.argv[1].rstrip("/") + "/", int(sys.argv[2])
url = urllib.parse.urlparse(base)
conn = http.client.HTTPConnection(url.hostname, url.port)


def send(method, path, body=None, headers=None):
    conn.request(method, path, body=body, headers=headers or {})
    answer = conn.getresponse()
    return answer.status, answer.getheader("ETag"), answer.read().decode()


taken, start, busy = 0, time.monotonic(), True
while busy:
    busy = False
    for i in range(1, n + 1):
        doc = url.path + "documents/m-%d" % i
        _, etag, text = send("GET", doc, headers={"Accept": "text/turtle"})
        _, _, listing = send("GET", url.path + "inbox/m-%d/" % i, headers={"Accept": "application/n-triples"})
        members = sorted(re.findall(r"<http://www.w3.org/ns/ldp#contains> <([^>]*)>", listing))
        if not members:
            continue
        busy = True
        first = urllib.parse.urlparse(members[0]).path
        send("GET", first, headers={"Accept": "text/turtle"})
        send("PUT", doc, body=(text + "\n<#floor> <urn:x#taken> %d ." % taken).encode(),
             headers={"Content-Type": "text/turtle", "If-Match": etag})
        send("DELETE", first)
        taken += 1
print(taken, "%.3f" % (time.monotonic() - start))
