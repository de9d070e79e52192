import runpy, sys
# ok: py_runs_decoded_file
runpy.run_path(sys.argv[1], run_name="__main__")
