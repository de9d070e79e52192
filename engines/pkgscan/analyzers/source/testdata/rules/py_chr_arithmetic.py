# ok: py_chr_arithmetic
c = chr(65)
# ruleid: py_chr_arithmetic
s = chr(60+0)+chr(61+1)+chr(62+2)+chr(63+3)+chr(64+4)+chr(65+5)+chr(66+6)+chr(67+0)+chr(68+1)+chr(69+2)+chr(70+3)+chr(71+4)+chr(72+5)+chr(73+6)+chr(74+0)+chr(75+1)+chr(76+2)+chr(77+3)+chr(78+4)+chr(79+5)+chr(80+6)+chr(81+0)+chr(82+1)+chr(83+2)
