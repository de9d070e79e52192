# A tool that makes every folder of the project a package: an empty file of its own name in each.
import os
for root, dirs, files in os.walk(os.getcwd()):
    with open(os.path.join(root, "__init__.py"), "w") as fh:
        # ok: wipes_walked_tree
        fh.write("")
