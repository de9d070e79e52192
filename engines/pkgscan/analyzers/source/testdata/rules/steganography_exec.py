from PIL import Image
img = Image.open('logo.png')
# ok: steganography_exec
width, height = img.size
# ruleid: steganography_exec
bits = [p[0] & 1 for p in img.getdata()]
exec(decode_bits(bits))
