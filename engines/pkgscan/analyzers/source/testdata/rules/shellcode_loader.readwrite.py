import ctypes
# a buffer allocated read-write (0x04) for data, then handed to a thread
# ok: shellcode_loader
ptr = ctypes.windll.kernel32.VirtualAlloc(0, size, 0x3000, 0x04)
ctypes.windll.kernel32.RtlMoveMemory(ctypes.c_void_p(ptr), data, size)
h = ctypes.windll.kernel32.CreateThread(0, 0, worker, ptr, 0, 0)
