# ok: pyarmor_protected
import pytest
# ruleid: pyarmor_protected
from pytransform import pyarmor_runtime
