import httpx


def upstream(request, settings):
    # ok: sends_request_credentials
    headers = {"Authorization": request.headers.get("Authorization")}
    return httpx.post(settings.UPSTREAM_URL, headers=headers)
