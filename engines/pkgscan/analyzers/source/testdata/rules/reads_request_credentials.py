class RequestIdMiddleware:
    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers") or [])
        # ruleid: reads_request_credentials
        token = headers.get(b"authorization")
        # ok: reads_request_credentials
        rid = headers.get(b"x-request-id")
        return token, rid
