;; The logistic regression's matrix kernels (linear.ts): for trainLogistic, margins z theta + b and the gradient z^T r
;; over a row-major matrix of standardised values, two features per f64x2 lane pair (the sums run in a fixed order, so
;; fits are deterministic; they differ from a one-feature-at-a-time loop only by rounding); for predictLogistic, `score`,
;; bit-identical to its JavaScript loop.
;;
;; Memory (all f64, byte addresses chosen by the caller): z rows x d values; theta d weights; r rows residuals;
;; out rows margins (`margins`) or d gradient sums (`gradient`).
(module
  (memory (export "memory") 1)

  ;; out[i] = b + sum over f of theta[f] z[i][f], four rows per pass over theta.
  (func (export "margins") (param $z i32) (param $rows i32) (param $d i32) (param $theta i32) (param $b f64) (param $out i32)
    (local $i i32) (local $f i32) (local $rowBytes i32) (local $pairs i32) (local $p0 i32) (local $p1 i32) (local $p2 i32) (local $p3 i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $t v128) (local $s0 f64) (local $s1 f64) (local $s2 f64) (local $s3 f64)
    (local $tf f64)
    (local.set $rowBytes (i32.shl (local.get $d) (i32.const 3)))
    (local.set $pairs (i32.and (local.get $rowBytes) (i32.const -16)))
    (local.set $i (i32.const 0))
    (block $quadsDone
      (loop $quads
        (br_if $quadsDone (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $rows)))
        (local.set $p0 (i32.add (local.get $z) (i32.mul (local.get $i) (local.get $rowBytes))))
        (local.set $p1 (i32.add (local.get $p0) (local.get $rowBytes)))
        (local.set $p2 (i32.add (local.get $p1) (local.get $rowBytes)))
        (local.set $p3 (i32.add (local.get $p2) (local.get $rowBytes)))
        (local.set $a0 (v128.const f64x2 0 0))
        (local.set $a1 (v128.const f64x2 0 0))
        (local.set $a2 (v128.const f64x2 0 0))
        (local.set $a3 (v128.const f64x2 0 0))
        (local.set $f (i32.const 0))
        (block $pairsDone
          (loop $pairLoop
            (br_if $pairsDone (i32.ge_u (local.get $f) (local.get $pairs)))
            (local.set $t (v128.load (i32.add (local.get $theta) (local.get $f))))
            (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $t) (v128.load (i32.add (local.get $p0) (local.get $f))))))
            (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $t) (v128.load (i32.add (local.get $p1) (local.get $f))))))
            (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (local.get $t) (v128.load (i32.add (local.get $p2) (local.get $f))))))
            (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (local.get $t) (v128.load (i32.add (local.get $p3) (local.get $f))))))
            (local.set $f (i32.add (local.get $f) (i32.const 16)))
            (br $pairLoop)))
        (local.set $s0 (f64.add (local.get $b) (f64.add (f64x2.extract_lane 0 (local.get $a0)) (f64x2.extract_lane 1 (local.get $a0)))))
        (local.set $s1 (f64.add (local.get $b) (f64.add (f64x2.extract_lane 0 (local.get $a1)) (f64x2.extract_lane 1 (local.get $a1)))))
        (local.set $s2 (f64.add (local.get $b) (f64.add (f64x2.extract_lane 0 (local.get $a2)) (f64x2.extract_lane 1 (local.get $a2)))))
        (local.set $s3 (f64.add (local.get $b) (f64.add (f64x2.extract_lane 0 (local.get $a3)) (f64x2.extract_lane 1 (local.get $a3)))))
        (if (i32.lt_u (local.get $f) (local.get $rowBytes))
          (then
            (local.set $tf (f64.load (i32.add (local.get $theta) (local.get $f))))
            (local.set $s0 (f64.add (local.get $s0) (f64.mul (local.get $tf) (f64.load (i32.add (local.get $p0) (local.get $f))))))
            (local.set $s1 (f64.add (local.get $s1) (f64.mul (local.get $tf) (f64.load (i32.add (local.get $p1) (local.get $f))))))
            (local.set $s2 (f64.add (local.get $s2) (f64.mul (local.get $tf) (f64.load (i32.add (local.get $p2) (local.get $f))))))
            (local.set $s3 (f64.add (local.get $s3) (f64.mul (local.get $tf) (f64.load (i32.add (local.get $p3) (local.get $f))))))))
        (f64.store offset=0 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3))) (local.get $s0))
        (f64.store offset=8 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3))) (local.get $s1))
        (f64.store offset=16 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3))) (local.get $s2))
        (f64.store offset=24 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3))) (local.get $s3))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $quads)))
    ;; The last rows one at a time.
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $rows)))
        (local.set $p0 (i32.add (local.get $z) (i32.mul (local.get $i) (local.get $rowBytes))))
        (local.set $s0 (local.get $b))
        (local.set $f (i32.const 0))
        (block $done
          (loop $next
            (br_if $done (i32.ge_u (local.get $f) (local.get $rowBytes)))
            (local.set $s0 (f64.add (local.get $s0) (f64.mul (f64.load (i32.add (local.get $theta) (local.get $f))) (f64.load (i32.add (local.get $p0) (local.get $f))))))
            (local.set $f (i32.add (local.get $f) (i32.const 8)))
            (br $next)))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3))) (local.get $s0))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rowLoop))))

  ;; out[f] += sum over i of r[i] z[i][f], rows two at a time (pairs of features per lane pair). The caller zeroes out
  ;; first; a matrix taken in blocks of an even number of rows gets the same additions in the same order as in one call.
  (func (export "gradient") (param $z i32) (param $rows i32) (param $d i32) (param $r i32) (param $out i32)
    (local $i i32) (local $f i32) (local $rowBytes i32) (local $p0 i32) (local $p1 i32) (local $r0 v128) (local $r1 v128)
    (local $o i32)
    (local.set $rowBytes (i32.shl (local.get $d) (i32.const 3)))
    (local.set $i (i32.const 0))
    (block $pairsDone
      (loop $rowPairs
        (br_if $pairsDone (i32.gt_u (i32.add (local.get $i) (i32.const 2)) (local.get $rows)))
        (local.set $p0 (i32.add (local.get $z) (i32.mul (local.get $i) (local.get $rowBytes))))
        (local.set $p1 (i32.add (local.get $p0) (local.get $rowBytes)))
        (local.set $r0 (v128.load64_splat (i32.add (local.get $r) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $r1 (v128.load64_splat offset=8 (i32.add (local.get $r) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $f (i32.const 0))
        ;; The out buffer has one spare f64 after d, so an odd d runs its last feature in a lane pair too (the
        ;; spare lane reads one value past the row, which lands in the spare slot and is never used).
        (block $done
          (loop $next
            (br_if $done (i32.ge_u (local.get $f) (local.get $rowBytes)))
            (local.set $o (i32.add (local.get $out) (local.get $f)))
            (v128.store (local.get $o)
              (f64x2.add (v128.load (local.get $o))
                (f64x2.add
                  (f64x2.mul (local.get $r0) (v128.load (i32.add (local.get $p0) (local.get $f))))
                  (f64x2.mul (local.get $r1) (v128.load (i32.add (local.get $p1) (local.get $f)))))))
            (local.set $f (i32.add (local.get $f) (i32.const 16)))
            (br $next)))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $rowPairs)))
    (if (i32.lt_u (local.get $i) (local.get $rows))
      (then
        (local.set $p0 (i32.add (local.get $z) (i32.mul (local.get $i) (local.get $rowBytes))))
        (local.set $r0 (v128.load64_splat (i32.add (local.get $r) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $f (i32.const 0))
        (block $done
          (loop $next
            (br_if $done (i32.ge_u (local.get $f) (local.get $rowBytes)))
            (local.set $o (i32.add (local.get $out) (local.get $f)))
            (v128.store (local.get $o)
              (f64x2.add (v128.load (local.get $o)) (f64x2.mul (local.get $r0) (v128.load (i32.add (local.get $p0) (local.get $f))))))
            (local.set $f (i32.add (local.get $f) (i32.const 16)))
            (br $next))))))
  ;; linear.ts standardization's sums over a row-major block x (rows x d, NaN missing), into count, mean and sq (d f64
  ;; each, carried over from earlier blocks): per observed value count += 1, mean += (v - mean) / count (first pass,
  ;; every row) and, in `squares`, sq += (v - mean)^2 with the final mean: the JavaScript operations in row order,
  ;; two features per lane pair, missing values left out by bitselect. The caller handles an odd last feature.
  (func (export "means") (param $x i32) (param $rows i32) (param $d i32) (param $pairs i32) (param $mean i32) (param $count i32)
    (local $r i32) (local $f i32) (local $rowBytes i32) (local $xp i32) (local $v v128) (local $mask v128)
    (local $c v128) (local $c2 v128) (local $m v128) (local $end i32)
    (local.set $rowBytes (i32.shl (local.get $d) (i32.const 3)))
    (local.set $end (i32.shl (local.get $pairs) (i32.const 4)))
    (local.set $r (i32.const 0))
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $xp (i32.add (local.get $x) (i32.mul (local.get $r) (local.get $rowBytes))))
        (local.set $f (i32.const 0))
        (block $done
          (loop $next
            (br_if $done (i32.ge_u (local.get $f) (local.get $end)))
            (local.set $v (v128.load (i32.add (local.get $xp) (local.get $f))))
            (local.set $mask (f64x2.eq (local.get $v) (local.get $v)))
            (local.set $c (v128.load (i32.add (local.get $count) (local.get $f))))
            (local.set $c2 (f64x2.add (local.get $c) (v128.const f64x2 1 1)))
            (local.set $m (v128.load (i32.add (local.get $mean) (local.get $f))))
            (v128.store (i32.add (local.get $mean) (local.get $f))
              (v128.bitselect (f64x2.add (local.get $m) (f64x2.div (f64x2.sub (local.get $v) (local.get $m)) (local.get $c2))) (local.get $m) (local.get $mask)))
            (v128.store (i32.add (local.get $count) (local.get $f)) (v128.bitselect (local.get $c2) (local.get $c) (local.get $mask)))
            (local.set $f (i32.add (local.get $f) (i32.const 16)))
            (br $next)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rowLoop))))

  (func (export "squares") (param $x i32) (param $rows i32) (param $d i32) (param $pairs i32) (param $mean i32) (param $sq i32)
    (local $r i32) (local $f i32) (local $rowBytes i32) (local $xp i32) (local $v v128) (local $t v128) (local $s v128) (local $end i32)
    (local.set $rowBytes (i32.shl (local.get $d) (i32.const 3)))
    (local.set $end (i32.shl (local.get $pairs) (i32.const 4)))
    (local.set $r (i32.const 0))
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $xp (i32.add (local.get $x) (i32.mul (local.get $r) (local.get $rowBytes))))
        (local.set $f (i32.const 0))
        (block $done
          (loop $next
            (br_if $done (i32.ge_u (local.get $f) (local.get $end)))
            (local.set $v (v128.load (i32.add (local.get $xp) (local.get $f))))
            (local.set $t (f64x2.sub (local.get $v) (v128.load (i32.add (local.get $mean) (local.get $f)))))
            (local.set $s (v128.load (i32.add (local.get $sq) (local.get $f))))
            (v128.store (i32.add (local.get $sq) (local.get $f))
              (v128.bitselect (f64x2.add (local.get $s) (f64x2.mul (local.get $t) (local.get $t))) (local.get $s) (f64x2.eq (local.get $v) (local.get $v))))
            (local.set $f (i32.add (local.get $f) (i32.const 16)))
            (br $next)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rowLoop))))

  ;; In place: z = (x - mean) / scale per value, 0 where x is missing (linear.ts standardizeInto), all features.
  (func (export "standardize") (param $x i32) (param $count i32) (param $d i32) (param $mean i32) (param $scale i32)
    (local $k i32) (local $f i32) (local $p i32) (local $v v128) (local $rowBytes i32) (local $end i32) (local $s f64)
    (local.set $rowBytes (i32.shl (local.get $d) (i32.const 3)))
    (local.set $end (i32.add (local.get $x) (i32.mul (local.get $count) (local.get $rowBytes))))
    (local.set $p (local.get $x))
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $f (i32.const 0))
        (block $done
          (loop $next
            (br_if $done (i32.gt_u (i32.add (local.get $f) (i32.const 16)) (local.get $rowBytes)))
            (local.set $v (v128.load (i32.add (local.get $p) (local.get $f))))
            (v128.store (i32.add (local.get $p) (local.get $f))
              (v128.and
                (f64x2.div (f64x2.sub (local.get $v) (v128.load (i32.add (local.get $mean) (local.get $f))))
                  (v128.load (i32.add (local.get $scale) (local.get $f))))
                (f64x2.eq (local.get $v) (local.get $v))))
            (local.set $f (i32.add (local.get $f) (i32.const 16)))
            (br $next)))
        (if (i32.lt_u (local.get $f) (local.get $rowBytes))
          (then
            (local.set $s (f64.load (i32.add (local.get $p) (local.get $f))))
            (f64.store (i32.add (local.get $p) (local.get $f))
              (if (result f64) (f64.eq (local.get $s) (local.get $s))
                (then (f64.div (f64.sub (local.get $s) (f64.load (i32.add (local.get $mean) (local.get $f)))) (f64.load (i32.add (local.get $scale) (local.get $f)))))
                (else (f64.const 0))))))
        (local.set $p (i32.add (local.get $p) (local.get $rowBytes)))
        (br $rowLoop))))

  ;; Logistic scoring (linear.ts predictLogistic): out[i] = b + the sum over f, in order of f, of w[f] (x[i][f] - mean[f])
  ;; / scale[f] for the observed x[i][f] (NaN is missing): the terms of a feature pair in one f64x2 lane pair, then
  ;; added to the row's sum one after the other (a missing value's term made -0, which leaves any sum unchanged), four
  ;; rows per pass over the weights. The JavaScript operations in the same order, so the margins are bit-identical.
  (func (export "score") (param $x i32) (param $rows i32) (param $d i32) (param $w i32) (param $mean i32) (param $scale i32) (param $b f64) (param $out i32)
    (local $i i32) (local $f i32) (local $rowBytes i32) (local $pairs i32) (local $p0 i32) (local $p1 i32) (local $p2 i32) (local $p3 i32)
    (local $wv v128) (local $mv v128) (local $sv v128) (local $v v128) (local $t0 v128) (local $t1 v128) (local $t2 v128) (local $t3 v128)
    (local $s0 f64) (local $s1 f64) (local $s2 f64) (local $s3 f64) (local $wf f64) (local $mf f64) (local $sf f64) (local $e f64)
    (local.set $rowBytes (i32.shl (local.get $d) (i32.const 3)))
    (local.set $pairs (i32.and (local.get $rowBytes) (i32.const -16)))
    (local.set $i (i32.const 0))
    (block $quadsDone
      (loop $quads
        (br_if $quadsDone (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $rows)))
        (local.set $p0 (i32.add (local.get $x) (i32.mul (local.get $i) (local.get $rowBytes))))
        (local.set $p1 (i32.add (local.get $p0) (local.get $rowBytes)))
        (local.set $p2 (i32.add (local.get $p1) (local.get $rowBytes)))
        (local.set $p3 (i32.add (local.get $p2) (local.get $rowBytes)))
        (local.set $s0 (local.get $b))
        (local.set $s1 (local.get $b))
        (local.set $s2 (local.get $b))
        (local.set $s3 (local.get $b))
        (local.set $f (i32.const 0))
        (block $pairsDone
          (loop $pairLoop
            (br_if $pairsDone (i32.ge_u (local.get $f) (local.get $pairs)))
            (local.set $wv (v128.load (i32.add (local.get $w) (local.get $f))))
            (local.set $mv (v128.load (i32.add (local.get $mean) (local.get $f))))
            (local.set $sv (v128.load (i32.add (local.get $scale) (local.get $f))))
            (local.set $v (v128.load (i32.add (local.get $p0) (local.get $f))))
            (local.set $t0 (v128.bitselect (f64x2.div (f64x2.mul (local.get $wv) (f64x2.sub (local.get $v) (local.get $mv))) (local.get $sv)) (v128.const f64x2 -0 -0) (f64x2.eq (local.get $v) (local.get $v))))
            (local.set $v (v128.load (i32.add (local.get $p1) (local.get $f))))
            (local.set $t1 (v128.bitselect (f64x2.div (f64x2.mul (local.get $wv) (f64x2.sub (local.get $v) (local.get $mv))) (local.get $sv)) (v128.const f64x2 -0 -0) (f64x2.eq (local.get $v) (local.get $v))))
            (local.set $v (v128.load (i32.add (local.get $p2) (local.get $f))))
            (local.set $t2 (v128.bitselect (f64x2.div (f64x2.mul (local.get $wv) (f64x2.sub (local.get $v) (local.get $mv))) (local.get $sv)) (v128.const f64x2 -0 -0) (f64x2.eq (local.get $v) (local.get $v))))
            (local.set $v (v128.load (i32.add (local.get $p3) (local.get $f))))
            (local.set $t3 (v128.bitselect (f64x2.div (f64x2.mul (local.get $wv) (f64x2.sub (local.get $v) (local.get $mv))) (local.get $sv)) (v128.const f64x2 -0 -0) (f64x2.eq (local.get $v) (local.get $v))))
            (local.set $s0 (f64.add (f64.add (local.get $s0) (f64x2.extract_lane 0 (local.get $t0))) (f64x2.extract_lane 1 (local.get $t0))))
            (local.set $s1 (f64.add (f64.add (local.get $s1) (f64x2.extract_lane 0 (local.get $t1))) (f64x2.extract_lane 1 (local.get $t1))))
            (local.set $s2 (f64.add (f64.add (local.get $s2) (f64x2.extract_lane 0 (local.get $t2))) (f64x2.extract_lane 1 (local.get $t2))))
            (local.set $s3 (f64.add (f64.add (local.get $s3) (f64x2.extract_lane 0 (local.get $t3))) (f64x2.extract_lane 1 (local.get $t3))))
            (local.set $f (i32.add (local.get $f) (i32.const 16)))
            (br $pairLoop)))
        (if (i32.lt_u (local.get $f) (local.get $rowBytes))
          (then
            (local.set $wf (f64.load (i32.add (local.get $w) (local.get $f))))
            (local.set $mf (f64.load (i32.add (local.get $mean) (local.get $f))))
            (local.set $sf (f64.load (i32.add (local.get $scale) (local.get $f))))
            (local.set $e (f64.load (i32.add (local.get $p0) (local.get $f))))
            (if (f64.eq (local.get $e) (local.get $e)) (then (local.set $s0 (f64.add (local.get $s0) (f64.div (f64.mul (local.get $wf) (f64.sub (local.get $e) (local.get $mf))) (local.get $sf))))))
            (local.set $e (f64.load (i32.add (local.get $p1) (local.get $f))))
            (if (f64.eq (local.get $e) (local.get $e)) (then (local.set $s1 (f64.add (local.get $s1) (f64.div (f64.mul (local.get $wf) (f64.sub (local.get $e) (local.get $mf))) (local.get $sf))))))
            (local.set $e (f64.load (i32.add (local.get $p2) (local.get $f))))
            (if (f64.eq (local.get $e) (local.get $e)) (then (local.set $s2 (f64.add (local.get $s2) (f64.div (f64.mul (local.get $wf) (f64.sub (local.get $e) (local.get $mf))) (local.get $sf))))))
            (local.set $e (f64.load (i32.add (local.get $p3) (local.get $f))))
            (if (f64.eq (local.get $e) (local.get $e)) (then (local.set $s3 (f64.add (local.get $s3) (f64.div (f64.mul (local.get $wf) (f64.sub (local.get $e) (local.get $mf))) (local.get $sf))))))))
        (f64.store offset=0 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3))) (local.get $s0))
        (f64.store offset=8 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3))) (local.get $s1))
        (f64.store offset=16 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3))) (local.get $s2))
        (f64.store offset=24 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3))) (local.get $s3))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $quads)))
    ;; The last rows one at a time, feature by feature.
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $rows)))
        (local.set $p0 (i32.add (local.get $x) (i32.mul (local.get $i) (local.get $rowBytes))))
        (local.set $s0 (local.get $b))
        (local.set $f (i32.const 0))
        (block $done
          (loop $next
            (br_if $done (i32.ge_u (local.get $f) (local.get $rowBytes)))
            (local.set $e (f64.load (i32.add (local.get $p0) (local.get $f))))
            (if (f64.eq (local.get $e) (local.get $e))
              (then
                (local.set $s0 (f64.add (local.get $s0)
                  (f64.div (f64.mul (f64.load (i32.add (local.get $w) (local.get $f))) (f64.sub (local.get $e) (f64.load (i32.add (local.get $mean) (local.get $f)))))
                    (f64.load (i32.add (local.get $scale) (local.get $f))))))))
            (local.set $f (i32.add (local.get $f) (i32.const 8)))
            (br $next)))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3))) (local.get $s0))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rowLoop))))
)
