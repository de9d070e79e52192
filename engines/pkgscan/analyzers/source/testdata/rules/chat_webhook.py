# A Slack webhook of the author's own, its ids written in or joined to the host's path.
import requests
# ruleid: chat_webhook
hook = "https://hooks.slack.com/services/" + "/".join(["T05Q2LZ8K1M", "B06AJ3RTX9P", "qW8eZr1TnY4uKc7VbXp2LmHd"])
requests.post(hook, json={"text": "x"})
# ok: chat_webhook
DOC = "see the Slack docs for incoming webhooks"
