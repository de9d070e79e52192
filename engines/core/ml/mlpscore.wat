;; The MLP's scoring kernel (mlp.ts `mlpMargin`): margins of a block of standardised rows, two rows and eight hidden
;; units per pass over the inputs in four f64x2 lanes pairs (sixteen independent sums). Each hidden unit's sum is
;; b1[h] + w[h][0] z[0] + w[h][1] z[1] + ... in that order, each product rounded then added (WebAssembly has no fused
;; multiply-add), and the margin b2 + sum over h of w2[h] relu(a[h]) in order of h: the same operations in the same
;; order as the JavaScript forward pass, so the margins are bit-identical to it.
;;
;; Memory (all f64, byte addresses chosen by the caller):
;;   w1t   inputs x hp weights, input-major (w1t[f * hp + h] = w1[h * inputs + f]); hp is hidden rounded up to 8,
;;         the padding units having zero weights and bias
;;   b1    hp biases; w2: hidden output weights
;;   z     rows x inputs standardised inputs, row-major; rows is even (the caller pads a block with a zero row)
;;   pre   rows x hp scratch for the hidden pre-activations
;;   out   rows margins
;; and for `standardize`: x rows x inputs raw values (NaN when missing), mean and scale inputs each.
(module
  (memory (export "memory") 1)

  ;; z = (x - mean) / scale per input, 0 where x is missing (NaN), two inputs at a time: as mlp.ts standardizes.
  (func (export "standardize")
    (param $x i32) (param $rows i32) (param $inputs i32) (param $mean i32) (param $scale i32) (param $z i32)
    (local $r i32) (local $f i32) (local $pairs i32) (local $rowBytes i32) (local $xp i32) (local $zp i32)
    (local $v v128) (local $s f64)
    (local.set $rowBytes (i32.shl (local.get $inputs) (i32.const 3)))
    (local.set $pairs (i32.and (local.get $rowBytes) (i32.const -16)))
    (local.set $r (i32.const 0))
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $xp (i32.add (local.get $x) (i32.mul (local.get $r) (local.get $rowBytes))))
        (local.set $zp (i32.add (local.get $z) (i32.mul (local.get $r) (local.get $rowBytes))))
        (local.set $f (i32.const 0))
        (block $pairsDone
          (loop $pairLoop
            (br_if $pairsDone (i32.ge_u (local.get $f) (local.get $pairs)))
            (local.set $v (v128.load (i32.add (local.get $xp) (local.get $f))))
            (v128.store (i32.add (local.get $zp) (local.get $f))
              (v128.and
                (f64x2.div
                  (f64x2.sub (local.get $v) (v128.load (i32.add (local.get $mean) (local.get $f))))
                  (v128.load (i32.add (local.get $scale) (local.get $f))))
                (f64x2.eq (local.get $v) (local.get $v))))
            (local.set $f (i32.add (local.get $f) (i32.const 16)))
            (br $pairLoop)))
        (if (i32.lt_u (local.get $f) (local.get $rowBytes))
          (then
            (local.set $s (f64.load (i32.add (local.get $xp) (local.get $f))))
            (f64.store (i32.add (local.get $zp) (local.get $f))
              (if (result f64) (f64.eq (local.get $s) (local.get $s))
                (then
                  (f64.div
                    (f64.sub (local.get $s) (f64.load (i32.add (local.get $mean) (local.get $f))))
                    (f64.load (i32.add (local.get $scale) (local.get $f)))))
                (else (f64.const 0))))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rowLoop))))

  (func (export "margins")
    (param $z i32) (param $rows i32) (param $inputs i32) (param $hidden i32) (param $hp i32)
    (param $w1t i32) (param $b1 i32) (param $w2 i32) (param $b2 f64) (param $pre i32) (param $out i32)
    (local $r i32) (local $hb i32) (local $f i32) (local $zp0 i32) (local $zp1 i32) (local $wp i32)
    (local $stride i32) (local $rowBytes i32) (local $pp i32) (local $q i32) (local $h i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local $s0 v128) (local $s1 v128) (local $w v128)
    (local $m f64) (local $a f64)
    (local.set $stride (i32.shl (local.get $hp) (i32.const 3)))
    (local.set $rowBytes (i32.shl (local.get $inputs) (i32.const 3)))
    (local.set $r (i32.const 0))
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $zp0 (i32.add (local.get $z) (i32.mul (local.get $r) (local.get $rowBytes))))
        (local.set $zp1 (i32.add (local.get $zp0) (local.get $rowBytes)))
        (local.set $hb (i32.const 0))
        (block $hiddenDone
          (loop $hiddenLoop
            (br_if $hiddenDone (i32.ge_u (local.get $hb) (local.get $hp)))
            (local.set $pp (i32.add (local.get $b1) (i32.shl (local.get $hb) (i32.const 3))))
            (local.set $a0 (v128.load offset=0 (local.get $pp)))
            (local.set $a1 (v128.load offset=16 (local.get $pp)))
            (local.set $a2 (v128.load offset=32 (local.get $pp)))
            (local.set $a3 (v128.load offset=48 (local.get $pp)))
            (local.set $c0 (local.get $a0))
            (local.set $c1 (local.get $a1))
            (local.set $c2 (local.get $a2))
            (local.set $c3 (local.get $a3))
            (local.set $wp (i32.add (local.get $w1t) (i32.shl (local.get $hb) (i32.const 3))))
            (local.set $f (i32.const 0))
            (block $inputsDone
              (loop $inputLoop
                (br_if $inputsDone (i32.ge_u (local.get $f) (local.get $rowBytes)))
                (local.set $s0 (f64x2.splat (f64.load (i32.add (local.get $zp0) (local.get $f)))))
                (local.set $s1 (f64x2.splat (f64.load (i32.add (local.get $zp1) (local.get $f)))))
                (local.set $w (v128.load offset=0 (local.get $wp)))
                (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $w) (local.get $s0))))
                (local.set $c0 (f64x2.add (local.get $c0) (f64x2.mul (local.get $w) (local.get $s1))))
                (local.set $w (v128.load offset=16 (local.get $wp)))
                (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $w) (local.get $s0))))
                (local.set $c1 (f64x2.add (local.get $c1) (f64x2.mul (local.get $w) (local.get $s1))))
                (local.set $w (v128.load offset=32 (local.get $wp)))
                (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (local.get $w) (local.get $s0))))
                (local.set $c2 (f64x2.add (local.get $c2) (f64x2.mul (local.get $w) (local.get $s1))))
                (local.set $w (v128.load offset=48 (local.get $wp)))
                (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (local.get $w) (local.get $s0))))
                (local.set $c3 (f64x2.add (local.get $c3) (f64x2.mul (local.get $w) (local.get $s1))))
                (local.set $wp (i32.add (local.get $wp) (local.get $stride)))
                (local.set $f (i32.add (local.get $f) (i32.const 8)))
                (br $inputLoop)))
            ;; pre[r][hb..hb+8) and pre[r+1][hb..hb+8)
            (local.set $pp (i32.add (local.get $pre)
              (i32.add (i32.mul (local.get $r) (local.get $stride)) (i32.shl (local.get $hb) (i32.const 3)))))
            (v128.store offset=0 (local.get $pp) (local.get $a0))
            (v128.store offset=16 (local.get $pp) (local.get $a1))
            (v128.store offset=32 (local.get $pp) (local.get $a2))
            (v128.store offset=48 (local.get $pp) (local.get $a3))
            (local.set $pp (i32.add (local.get $pp) (local.get $stride)))
            (v128.store offset=0 (local.get $pp) (local.get $c0))
            (v128.store offset=16 (local.get $pp) (local.get $c1))
            (v128.store offset=32 (local.get $pp) (local.get $c2))
            (v128.store offset=48 (local.get $pp) (local.get $c3))
            (local.set $hb (i32.add (local.get $hb) (i32.const 8)))
            (br $hiddenLoop)))
        ;; The two rows' margins: b2 plus, in order of h, w2[h] a[h] where a[h] > 0.
        (local.set $q (local.get $r))
        (block $outDone
          (loop $outLoop
            (br_if $outDone (i32.ge_u (local.get $q) (i32.add (local.get $r) (i32.const 2))))
            (local.set $m (local.get $b2))
            (local.set $pp (i32.add (local.get $pre) (i32.mul (local.get $q) (local.get $stride))))
            (local.set $h (i32.const 0))
            (block $unitsDone
              (loop $unitLoop
                (br_if $unitsDone (i32.ge_u (local.get $h) (local.get $hidden)))
                (local.set $a (f64.load (i32.add (local.get $pp) (i32.shl (local.get $h) (i32.const 3)))))
                (if (f64.gt (local.get $a) (f64.const 0))
                  (then
                    (local.set $m (f64.add (local.get $m)
                      (f64.mul (f64.load (i32.add (local.get $w2) (i32.shl (local.get $h) (i32.const 3)))) (local.get $a))))))
                (local.set $h (i32.add (local.get $h) (i32.const 1)))
                (br $unitLoop)))
            (f64.store (i32.add (local.get $out) (i32.shl (local.get $q) (i32.const 3))) (local.get $m))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $outLoop)))
        (local.set $r (i32.add (local.get $r) (i32.const 2)))
        (br $rowLoop)))))
