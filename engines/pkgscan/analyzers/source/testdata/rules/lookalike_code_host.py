# ruleid: lookalike_code_host
WHEELS = "https://files-pythonhosted.org/packages/geo/geocore-2.1.tar.gz"
# ok: lookalike_code_host
REAL = "https://files.pythonhosted.org/packages/source/g/geocore/geocore-2.1.tar.gz"
