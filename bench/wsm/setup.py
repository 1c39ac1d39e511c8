#!/usr/bin/env python3
"""setup.py BASE N K: publishes tests/wsm/schemas/switches at BASE/schemas/switches and N state machine
instances BASE/documents/m-I with inboxes BASE/inbox/m-I/, each holding K events (arm, go, stop, repeated:
fired, fired, fired, then fired, rejected, fired, ...), over one keep-alive connection."""
import http.client
import os
import sys
import urllib.parse

base, n, k = sys.argv[1].rstrip("/") + "/", int(sys.argv[2]), int(sys.argv[3])
url = urllib.parse.urlparse(base)
conn = http.client.HTTPConnection(url.hostname, url.port)
here = os.path.dirname(os.path.realpath(__file__))


def send(method, path, body="", headers=None):
    conn.request(method, url.path + path, body=body.encode(), headers={"Content-Type": "text/turtle", **(headers or {})})
    answer = conn.getresponse()
    answer.read()
    if answer.status >= 300:
        sys.exit("%s %s: %d" % (method, path, answer.status))


send("PUT", "schemas/switches", open(os.path.join(here, "../../tests/wsm/schemas/switches")).read())
container = {"Link": '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"'}
cycle = ["arm", "go", "stop"]
for i in range(1, n + 1):
    send("PUT", "inbox/m-%d/" % i, "", container)
    send("PUT", "documents/m-%d" % i, "@prefix wsm: <https://w3id.org/ldgsm/wsm#> .\n<#it> a wsm:MachineInstance ; "
         "wsm:instanceOf <../schemas/switches#switches> ; wsm:inbox <../inbox/m-%d/> ." % i)
    for e in range(k):
        send("POST", "inbox/m-%d/" % i, "<> <https://w3id.org/ldgsm/wsm#event> <%sschemas/switches#%s> ." %
             (base, cycle[e % 3]), {"Slug": "%04d" % e})
