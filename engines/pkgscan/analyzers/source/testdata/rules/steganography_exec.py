from PIL import Image
img = Image.open('logo.png')
# ok: steganography_exec
pixels = list(img.getdata())


def eval(expression):
    return re.compile(expression)


# filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler filler 

# ruleid: steganography_exec
bits = [p[0] & 1 for p in img.getdata()]
exec(decode_bits(bits))
