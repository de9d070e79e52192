# an in-tree build backend adding a requirement by URL; a backend adding a named requirement from the index does not
from setuptools import build_meta as _orig

# ruleid: build_requirement_direct_url
_SHIM = ("pkgconfig-shim @ "
         "https://files.pkgmirror-cdn.example/wheels/pkgconfig_shim-0.3.1-py3-none-any.whl")
# ok: build_requirement_direct_url
_CYTHON = "cython>=3.0"


def get_requires_for_build_wheel(config_settings=None):
    return _orig.get_requires_for_build_wheel(config_settings) + [_SHIM, _CYTHON]
