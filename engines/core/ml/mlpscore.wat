;; The MLP's kernels (mlp.ts). `forward`, which both scoring (`score`) and the training forward pass (`margins`) run,
;; takes two rows and eight hidden units per pass over the inputs in four f64x2 lane pairs (sixteen independent
;; sums). Each hidden unit's sum is b1[h] + w[h][0] z[0] + w[h][1] z[1] + ... in that order, each product rounded then
;; added (WebAssembly has no fused multiply-add), and the margin b2 + sum over h of w2[h] relu(a[h]) in order of h: the
;; same operations in the same order as the JavaScript forward pass, so the margins are bit-identical to it.
;;
;; Memory (all f64, byte addresses chosen by the caller):
;;   w1t   inputs x hp weights, input-major (w1t[f * hp + h] = w1[h * inputs + f]); hp is hidden rounded up to 8,
;;         the padding units having zero weights and bias
;;   b1    hp biases; w2: hp output weights (the padding ones zero)
;;   x     for `score`: rows x inputs raw values (NaN when missing), row-major, standardised in place with mean and
;;         scale (inputs each)
;;   z     for `margins`: rows x inputs standardised inputs, row-major
;;   pre   the hidden pre-activations: rows x hp for `margins` (read by `backward`), 2 x hp scratch for `score`
;;   out   rows margins; rows is even (the caller pads a block with a zero row)
(module
  (memory (export "memory") 1)

  ;; Margins of the $rows standardised rows at $z (row-major, rows even), two rows at a time. The pre-activations of
  ;; rows r and r + 1 go to $pre + (r / 2) preStep (rows x hp when preStep is 2 hp 8; the same two rows for every pair
  ;; when it is 0). A padding unit (zero weights and bias) has a[h] = 0 or NaN, never above 0, and adds nothing.
  (func $forward
    (param $z i32) (param $rows i32) (param $inputs i32) (param $hp i32) (param $w1t i32) (param $b1 i32)
    (param $w2 i32) (param $b2 f64) (param $pre i32) (param $preStep i32) (param $out i32)
    (local $r i32) (local $hb i32) (local $zp i32) (local $zEnd i32) (local $zq i32) (local $wp i32) (local $wq i32)
    (local $stride i32) (local $rowBytes i32) (local $pp i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local $s0 v128) (local $s1 v128) (local $w v128) (local $mv v128)
    (local.set $stride (i32.shl (local.get $hp) (i32.const 3)))
    (local.set $rowBytes (i32.shl (local.get $inputs) (i32.const 3)))
    (local.set $r (i32.const 0))
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $r) (local.get $rows)))
        ;; Row r's inputs from $zp to $zEnd, row r + 1's a row further on.
        (local.set $zp (i32.add (local.get $z) (i32.mul (local.get $r) (local.get $rowBytes))))
        (local.set $zEnd (i32.add (local.get $zp) (local.get $rowBytes)))
        (local.set $mv (f64x2.splat (local.get $b2)))
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
            (local.set $zq (local.get $zp))
            (block $inputsDone
              (loop $inputLoop
                (br_if $inputsDone (i32.ge_u (local.get $zq) (local.get $zEnd)))
                (local.set $s0 (v128.load64_splat (local.get $zq)))
                (local.set $s1 (v128.load64_splat (i32.add (local.get $zq) (local.get $rowBytes))))
                (local.set $zq (i32.add (local.get $zq) (i32.const 8)))
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
                (br $inputLoop)))
            ;; pre[r][hb..hb+8) and pre[r+1][hb..hb+8)
            (local.set $pp (i32.add (local.get $pre) (i32.shl (local.get $hb) (i32.const 3))))
            (v128.store offset=0 (local.get $pp) (local.get $a0))
            (v128.store offset=16 (local.get $pp) (local.get $a1))
            (v128.store offset=32 (local.get $pp) (local.get $a2))
            (v128.store offset=48 (local.get $pp) (local.get $a3))
            (local.set $pp (i32.add (local.get $pp) (local.get $stride)))
            (v128.store offset=0 (local.get $pp) (local.get $c0))
            (v128.store offset=16 (local.get $pp) (local.get $c1))
            (v128.store offset=32 (local.get $pp) (local.get $c2))
            (v128.store offset=48 (local.get $pp) (local.get $c3))
            ;; The margins' terms of these eight units, rows r and r + 1 in the two lanes: w2[h] a[h] where a[h] > 0,
            ;; else -0 (which leaves any sum as it is), added in order of h, without a branch.
            (local.set $wq (i32.add (local.get $w2) (i32.shl (local.get $hb) (i32.const 3))))
            (local.set $s0 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $a0) (local.get $c0)))
            (local.set $mv (f64x2.add (local.get $mv) (v128.bitselect
              (f64x2.mul (v128.load64_splat offset=0 (local.get $wq)) (local.get $s0))
              (v128.const f64x2 -0 -0) (f64x2.gt (local.get $s0) (v128.const f64x2 0 0)))))
            (local.set $s0 (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $a0) (local.get $c0)))
            (local.set $mv (f64x2.add (local.get $mv) (v128.bitselect
              (f64x2.mul (v128.load64_splat offset=8 (local.get $wq)) (local.get $s0))
              (v128.const f64x2 -0 -0) (f64x2.gt (local.get $s0) (v128.const f64x2 0 0)))))
            (local.set $s0 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $a1) (local.get $c1)))
            (local.set $mv (f64x2.add (local.get $mv) (v128.bitselect
              (f64x2.mul (v128.load64_splat offset=16 (local.get $wq)) (local.get $s0))
              (v128.const f64x2 -0 -0) (f64x2.gt (local.get $s0) (v128.const f64x2 0 0)))))
            (local.set $s0 (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $a1) (local.get $c1)))
            (local.set $mv (f64x2.add (local.get $mv) (v128.bitselect
              (f64x2.mul (v128.load64_splat offset=24 (local.get $wq)) (local.get $s0))
              (v128.const f64x2 -0 -0) (f64x2.gt (local.get $s0) (v128.const f64x2 0 0)))))
            (local.set $s0 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $a2) (local.get $c2)))
            (local.set $mv (f64x2.add (local.get $mv) (v128.bitselect
              (f64x2.mul (v128.load64_splat offset=32 (local.get $wq)) (local.get $s0))
              (v128.const f64x2 -0 -0) (f64x2.gt (local.get $s0) (v128.const f64x2 0 0)))))
            (local.set $s0 (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $a2) (local.get $c2)))
            (local.set $mv (f64x2.add (local.get $mv) (v128.bitselect
              (f64x2.mul (v128.load64_splat offset=40 (local.get $wq)) (local.get $s0))
              (v128.const f64x2 -0 -0) (f64x2.gt (local.get $s0) (v128.const f64x2 0 0)))))
            (local.set $s0 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $a3) (local.get $c3)))
            (local.set $mv (f64x2.add (local.get $mv) (v128.bitselect
              (f64x2.mul (v128.load64_splat offset=48 (local.get $wq)) (local.get $s0))
              (v128.const f64x2 -0 -0) (f64x2.gt (local.get $s0) (v128.const f64x2 0 0)))))
            (local.set $s0 (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $a3) (local.get $c3)))
            (local.set $mv (f64x2.add (local.get $mv) (v128.bitselect
              (f64x2.mul (v128.load64_splat offset=56 (local.get $wq)) (local.get $s0))
              (v128.const f64x2 -0 -0) (f64x2.gt (local.get $s0) (v128.const f64x2 0 0)))))
            (local.set $hb (i32.add (local.get $hb) (i32.const 8)))
            (br $hiddenLoop)))
        (v128.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3))) (local.get $mv))
        (local.set $pre (i32.add (local.get $pre) (local.get $preStep)))
        (local.set $r (i32.add (local.get $r) (i32.const 2)))
        (br $rowLoop))))

  ;; The training forward pass (mlp.ts trainMlp): margins of the $rows standardised rows (rows even) at $z, keeping the
  ;; pre-activations (rows x hp at $pre) for `backward`.
  (func (export "margins")
    (param $z i32) (param $rows i32) (param $inputs i32) (param $hp i32) (param $w1t i32) (param $b1 i32)
    (param $w2 i32) (param $b2 f64) (param $pre i32) (param $out i32)
    (call $forward (local.get $z) (local.get $rows) (local.get $inputs) (local.get $hp) (local.get $w1t) (local.get $b1)
      (local.get $w2) (local.get $b2) (local.get $pre) (i32.shl (local.get $hp) (i32.const 4)) (local.get $out)))

  ;; Scoring (mlp.ts `mlpMargin`): margins of a block of raw rows (rows even). The block is first standardised in
  ;; place, z = (x - mean) / scale and 0 where x is NaN (`standardizeRow`'s operations): two inputs of a row per f64x2
  ;; step and a last odd one alone. Then `forward`, with a two-row scratch at $pre for the pre-activations.
  (func (export "score")
    (param $x i32) (param $rows i32) (param $inputs i32) (param $hp i32) (param $w1t i32) (param $b1 i32)
    (param $w2 i32) (param $b2 f64) (param $mean i32) (param $scale i32) (param $pre i32) (param $out i32)
    (local $p i32) (local $end i32) (local $f i32) (local $pairBytes i32) (local $rowBytes i32) (local $v v128) (local $s f64)
    (local.set $rowBytes (i32.shl (local.get $inputs) (i32.const 3)))
    (local.set $pairBytes (i32.and (local.get $rowBytes) (i32.const -16)))
    (local.set $p (local.get $x))
    (local.set $end (i32.add (local.get $x) (i32.mul (local.get $rows) (local.get $rowBytes))))
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $f (i32.const 0))
        (block $pairsDone
          (loop $pairLoop
            (br_if $pairsDone (i32.ge_u (local.get $f) (local.get $pairBytes)))
            (local.set $v (v128.load (i32.add (local.get $p) (local.get $f))))
            (v128.store (i32.add (local.get $p) (local.get $f))
              (v128.and
                (f64x2.div
                  (f64x2.sub (local.get $v) (v128.load (i32.add (local.get $mean) (local.get $f))))
                  (v128.load (i32.add (local.get $scale) (local.get $f))))
                (f64x2.eq (local.get $v) (local.get $v))))
            (local.set $f (i32.add (local.get $f) (i32.const 16)))
            (br $pairLoop)))
        (if (i32.lt_u (local.get $f) (local.get $rowBytes))
          (then
            (local.set $s (f64.load (i32.add (local.get $p) (local.get $f))))
            (f64.store (i32.add (local.get $p) (local.get $f))
              (select
                (f64.div (f64.sub (local.get $s) (f64.load (i32.add (local.get $mean) (local.get $f))))
                  (f64.load (i32.add (local.get $scale) (local.get $f))))
                (f64.const 0)
                (f64.eq (local.get $s) (local.get $s))))))
        (local.set $p (i32.add (local.get $p) (local.get $rowBytes)))
        (br $rowLoop)))
    (call $forward (local.get $x) (local.get $rows) (local.get $inputs) (local.get $hp) (local.get $w1t) (local.get $b1)
      (local.get $w2) (local.get $b2) (local.get $pre) (i32.const 0) (local.get $out)))

  ;; Training (mlp.ts trainMlp), with the weights in the scoring layout (w1t input-major over hp units, b1 and w2 hp
  ;; long, the padding units zero). After `margins` on a batch, `backward` adds each row's loss gradient, rows in
  ;; order: for every unit h with pre[r][h] > 0, gw2[h] += d a, gb1[h] += dh and gw1t[f][h] += dh z[f] with
  ;; dh = d w2[h], d = d[r]. Inactive units are left untouched (bitselect), so each sum gets exactly the additions of
  ;; the JavaScript row-by-row loop in the same order. Scratch: hp f64 for dh and hp f64 (hp / 2 masks) at $scratch.
  (func (export "backward")
    (param $z i32) (param $rows i32) (param $inputs i32) (param $hp i32) (param $pre i32) (param $d i32)
    (param $w2 i32) (param $gw1t i32) (param $gb1 i32) (param $gw2 i32) (param $scratch i32)
    (local $r i32) (local $hb i32) (local $f i32) (local $stride i32) (local $rowBytes i32) (local $zp i32)
    (local $pp i32) (local $gp i32) (local $masks i32) (local $ds v128) (local $a v128) (local $mask v128)
    (local $dh v128) (local $zs v128) (local $g v128)
    (local.set $stride (i32.shl (local.get $hp) (i32.const 3)))
    (local.set $rowBytes (i32.shl (local.get $inputs) (i32.const 3)))
    (local.set $masks (i32.add (local.get $scratch) (local.get $stride)))
    (local.set $r (i32.const 0))
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $ds (f64x2.splat (f64.load (i32.add (local.get $d) (i32.shl (local.get $r) (i32.const 3))))))
        (local.set $pp (i32.add (local.get $pre) (i32.mul (local.get $r) (local.get $stride))))
        ;; Per unit pair: the mask, dh, and the output-weight and bias sums.
        (local.set $hb (i32.const 0))
        (block $unitsDone
          (loop $unitLoop
            (br_if $unitsDone (i32.ge_u (local.get $hb) (local.get $stride)))
            (local.set $a (v128.load (i32.add (local.get $pp) (local.get $hb))))
            (local.set $mask (f64x2.gt (local.get $a) (v128.const f64x2 0 0)))
            (local.set $dh (f64x2.mul (local.get $ds) (v128.load (i32.add (local.get $w2) (local.get $hb)))))
            (v128.store (i32.add (local.get $scratch) (local.get $hb)) (local.get $dh))
            (v128.store (i32.add (local.get $masks) (local.get $hb)) (local.get $mask))
            (local.set $gp (i32.add (local.get $gw2) (local.get $hb)))
            (local.set $g (v128.load (local.get $gp)))
            (v128.store (local.get $gp)
              (v128.bitselect (f64x2.add (local.get $g) (f64x2.mul (local.get $ds) (local.get $a))) (local.get $g) (local.get $mask)))
            (local.set $gp (i32.add (local.get $gb1) (local.get $hb)))
            (local.set $g (v128.load (local.get $gp)))
            (v128.store (local.get $gp)
              (v128.bitselect (f64x2.add (local.get $g) (local.get $dh)) (local.get $g) (local.get $mask)))
            (local.set $hb (i32.add (local.get $hb) (i32.const 16)))
            (br $unitLoop)))
        ;; gw1t[f][h] += dh[h] z[f] for the active units.
        (local.set $zp (i32.add (local.get $z) (i32.mul (local.get $r) (local.get $rowBytes))))
        (local.set $gp (local.get $gw1t))
        (local.set $f (i32.const 0))
        (block $inputsDone
          (loop $inputLoop
            (br_if $inputsDone (i32.ge_u (local.get $f) (local.get $rowBytes)))
            (local.set $zs (v128.load64_splat (i32.add (local.get $zp) (local.get $f))))
            (local.set $hb (i32.const 0))
            (block $pairsDone
              (loop $pairLoop
                (br_if $pairsDone (i32.ge_u (local.get $hb) (local.get $stride)))
                (local.set $g (v128.load (i32.add (local.get $gp) (local.get $hb))))
                (v128.store (i32.add (local.get $gp) (local.get $hb))
                  (v128.bitselect
                    (f64x2.add (local.get $g) (f64x2.mul (v128.load (i32.add (local.get $scratch) (local.get $hb))) (local.get $zs)))
                    (local.get $g)
                    (v128.load (i32.add (local.get $masks) (local.get $hb)))))
                (local.set $hb (i32.add (local.get $hb) (i32.const 16)))
                (br $pairLoop)))
            (local.set $gp (i32.add (local.get $gp) (local.get $stride)))
            (local.set $f (i32.add (local.get $f) (i32.const 8)))
            (br $inputLoop)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rowLoop))))

  ;; One Adam step (mlp.ts trainMlp) over count parameters (count even) at p with gradient sums at g and moments at
  ;; m and v: gr = g inv + decay p; m = beta1 m + (1 - beta1) gr; v = beta2 v + ((1 - beta2) gr) gr;
  ;; p = p - (lr (m / c1)) / (sqrt(v / c2) + eps): the JavaScript expressions, operation for operation.
  (func (export "adam")
    (param $p i32) (param $g i32) (param $m i32) (param $v i32) (param $count i32) (param $inv f64) (param $decay f64)
    (param $beta1 f64) (param $oneMinusBeta1 f64) (param $beta2 f64) (param $oneMinusBeta2 f64) (param $lr f64)
    (param $c1 f64) (param $c2 f64) (param $eps f64)
    (local $k i32) (local $end i32) (local $gr v128) (local $mv v128) (local $vv v128) (local $pv v128)
    (local.set $end (i32.shl (local.get $count) (i32.const 3)))
    (local.set $k (i32.const 0))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $end)))
        (local.set $pv (v128.load (i32.add (local.get $p) (local.get $k))))
        (local.set $gr (f64x2.add
          (f64x2.mul (v128.load (i32.add (local.get $g) (local.get $k))) (f64x2.splat (local.get $inv)))
          (f64x2.mul (f64x2.splat (local.get $decay)) (local.get $pv))))
        (local.set $mv (f64x2.add
          (f64x2.mul (f64x2.splat (local.get $beta1)) (v128.load (i32.add (local.get $m) (local.get $k))))
          (f64x2.mul (f64x2.splat (local.get $oneMinusBeta1)) (local.get $gr))))
        (local.set $vv (f64x2.add
          (f64x2.mul (f64x2.splat (local.get $beta2)) (v128.load (i32.add (local.get $v) (local.get $k))))
          (f64x2.mul (f64x2.mul (f64x2.splat (local.get $oneMinusBeta2)) (local.get $gr)) (local.get $gr))))
        (v128.store (i32.add (local.get $m) (local.get $k)) (local.get $mv))
        (v128.store (i32.add (local.get $v) (local.get $k)) (local.get $vv))
        (v128.store (i32.add (local.get $p) (local.get $k))
          (f64x2.sub (local.get $pv)
            (f64x2.div
              (f64x2.mul (f64x2.splat (local.get $lr)) (f64x2.div (local.get $mv) (f64x2.splat (local.get $c1))))
              (f64x2.add (f64x2.sqrt (f64x2.div (local.get $vv) (f64x2.splat (local.get $c2)))) (f64x2.splat (local.get $eps))))))
        (local.set $k (i32.add (local.get $k) (i32.const 16)))
        (br $next))))
)
