import time

_T = 1767225600


def settle():
    # ruleid: emits_endless_loop
    if time.time() > _T:
        while True:
            print("no to war")
