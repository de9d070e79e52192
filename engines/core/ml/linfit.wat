;; The logistic regression's matrix kernels (linear.ts): for trainLogistic, margins z theta + b and the gradient z^T r
;; over a row-major matrix of standardised values, two features per f64x2 lane pair (the sums run in a fixed order, so
;; fits are deterministic; they differ from a one-feature-at-a-time loop only by rounding); for predictLogistic, `score`,
;; bit-identical to its JavaScript loop.
;;
;; Memory (all f64, byte addresses chosen by the caller): z rows x d values; theta d weights; r rows residuals;
;; out rows margins (`margins`) or d gradient sums (`gradient`).
(module
  ;; Math.exp and Math.log1p, for the rows whose margin the vector path below leaves out (linear.ts passes them in).
  (import "math" "exp" (func $exp (param f64) (result f64)))
  (import "math" "log1p" (func $log1p (param f64) (result f64)))
  (memory (export "memory") 1)

  ;; out[i] = b + sum over f of theta[f] z[i][f], four rows per pass over theta.
  (func $margins (export "margins") (param $z i32) (param $rows i32) (param $d i32) (param $theta i32) (param $b f64) (param $out i32)
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

  ;; out[f] += sum over i of r[i] z[i][f], rows two at a time: for each row pair, out gets r0 z0 + r1 z1 added (pairs of
  ;; features per lane pair), and an odd last row r z. The features go in chunks of 8 whose sums stay in registers while
  ;; every row passes (then chunks of 2), so each sum takes the same additions in the same order as row pair by row pair
  ;; over the whole of out; a matrix taken in blocks of an even number of rows gets the same as in one call. The caller
  ;; zeroes out first. out has one spare f64 after d, so an odd d runs its last feature in a lane pair too (the spare
  ;; lane reads one value past the row, which lands in the spare slot and is never used).
  (func $gradient (export "gradient") (param $z i32) (param $rows i32) (param $d i32) (param $r i32) (param $out i32)
    (local $i i32) (local $c i32) (local $rowBytes i32) (local $padded i32) (local $p0 i32) (local $p1 i32) (local $rp i32) (local $o i32)
    (local $r0 v128) (local $r1 v128) (local $g0 v128) (local $g1 v128) (local $g2 v128) (local $g3 v128)
    (local.set $rowBytes (i32.shl (local.get $d) (i32.const 3)))
    (local.set $padded (i32.and (i32.add (local.get $rowBytes) (i32.const 15)) (i32.const -16)))
    (local.set $c (i32.const 0))
    (block $chunksDone
      (loop $chunks
        (br_if $chunksDone (i32.gt_u (i32.add (local.get $c) (i32.const 64)) (local.get $padded)))
        (local.set $o (i32.add (local.get $out) (local.get $c)))
        (local.set $g0 (v128.load offset=0 (local.get $o)))
        (local.set $g1 (v128.load offset=16 (local.get $o)))
        (local.set $g2 (v128.load offset=32 (local.get $o)))
        (local.set $g3 (v128.load offset=48 (local.get $o)))
        (local.set $p0 (i32.add (local.get $z) (local.get $c)))
        (local.set $rp (local.get $r))
        (local.set $i (i32.const 0))
        (block $chunksRowsDone
          (loop $chunksRows
            (br_if $chunksRowsDone (i32.gt_u (i32.add (local.get $i) (i32.const 2)) (local.get $rows)))
            (local.set $p1 (i32.add (local.get $p0) (local.get $rowBytes)))
            (local.set $r0 (v128.load64_splat (local.get $rp)))
            (local.set $r1 (v128.load64_splat offset=8 (local.get $rp)))
            (local.set $g0 (f64x2.add (local.get $g0) (f64x2.add (f64x2.mul (local.get $r0) (v128.load offset=0 (local.get $p0))) (f64x2.mul (local.get $r1) (v128.load offset=0 (local.get $p1))))))
            (local.set $g1 (f64x2.add (local.get $g1) (f64x2.add (f64x2.mul (local.get $r0) (v128.load offset=16 (local.get $p0))) (f64x2.mul (local.get $r1) (v128.load offset=16 (local.get $p1))))))
            (local.set $g2 (f64x2.add (local.get $g2) (f64x2.add (f64x2.mul (local.get $r0) (v128.load offset=32 (local.get $p0))) (f64x2.mul (local.get $r1) (v128.load offset=32 (local.get $p1))))))
            (local.set $g3 (f64x2.add (local.get $g3) (f64x2.add (f64x2.mul (local.get $r0) (v128.load offset=48 (local.get $p0))) (f64x2.mul (local.get $r1) (v128.load offset=48 (local.get $p1))))))
            (local.set $p0 (i32.add (local.get $p1) (local.get $rowBytes)))
            (local.set $rp (i32.add (local.get $rp) (i32.const 16)))
            (local.set $i (i32.add (local.get $i) (i32.const 2)))
            (br $chunksRows)))
        (if (i32.lt_u (local.get $i) (local.get $rows))
          (then
            (local.set $r0 (v128.load64_splat (local.get $rp)))
            (local.set $g0 (f64x2.add (local.get $g0) (f64x2.mul (local.get $r0) (v128.load offset=0 (local.get $p0)))))
            (local.set $g1 (f64x2.add (local.get $g1) (f64x2.mul (local.get $r0) (v128.load offset=16 (local.get $p0)))))
            (local.set $g2 (f64x2.add (local.get $g2) (f64x2.mul (local.get $r0) (v128.load offset=32 (local.get $p0)))))
            (local.set $g3 (f64x2.add (local.get $g3) (f64x2.mul (local.get $r0) (v128.load offset=48 (local.get $p0)))))))
        (v128.store offset=0 (local.get $o) (local.get $g0))
        (v128.store offset=16 (local.get $o) (local.get $g1))
        (v128.store offset=32 (local.get $o) (local.get $g2))
        (v128.store offset=48 (local.get $o) (local.get $g3))
        (local.set $c (i32.add (local.get $c) (i32.const 64)))
        (br $chunks)))
    (block $singlesDone
      (loop $singles
        (br_if $singlesDone (i32.gt_u (i32.add (local.get $c) (i32.const 16)) (local.get $padded)))
        (local.set $o (i32.add (local.get $out) (local.get $c)))
        (local.set $g0 (v128.load offset=0 (local.get $o)))
        (local.set $p0 (i32.add (local.get $z) (local.get $c)))
        (local.set $rp (local.get $r))
        (local.set $i (i32.const 0))
        (block $singlesRowsDone
          (loop $singlesRows
            (br_if $singlesRowsDone (i32.gt_u (i32.add (local.get $i) (i32.const 2)) (local.get $rows)))
            (local.set $p1 (i32.add (local.get $p0) (local.get $rowBytes)))
            (local.set $r0 (v128.load64_splat (local.get $rp)))
            (local.set $r1 (v128.load64_splat offset=8 (local.get $rp)))
            (local.set $g0 (f64x2.add (local.get $g0) (f64x2.add (f64x2.mul (local.get $r0) (v128.load offset=0 (local.get $p0))) (f64x2.mul (local.get $r1) (v128.load offset=0 (local.get $p1))))))
            (local.set $p0 (i32.add (local.get $p1) (local.get $rowBytes)))
            (local.set $rp (i32.add (local.get $rp) (i32.const 16)))
            (local.set $i (i32.add (local.get $i) (i32.const 2)))
            (br $singlesRows)))
        (if (i32.lt_u (local.get $i) (local.get $rows))
          (then
            (local.set $r0 (v128.load64_splat (local.get $rp)))
            (local.set $g0 (f64x2.add (local.get $g0) (f64x2.mul (local.get $r0) (v128.load offset=0 (local.get $p0)))))))
        (v128.store offset=0 (local.get $o) (local.get $g0))
        (local.set $c (i32.add (local.get $c) (i32.const 16)))
        (br $singles))))

  ;; The logistic fit's losses and residuals (linear.ts fitLogistic's `residuals`, bit for bit): for each row i of
  ;; [0, rows) with margin m = m[i], label y[i] and row weight w[i], e = exp(-|m|),
  ;;   loss += w[i] ((m > 0 ? m : 0) + log1p(e) - y[i] m),  r[i] = w[i] ((m >= 0 ? 1 / (1 + e) : e / (1 + e)) - y[i]),  gb += r[i],
  ;; with loss and gb at acc and acc + 8 carried in and out, added row by row in order. exp and log1p are fdlibm's (the
  ;; algorithms of V8's Math.exp and Math.log1p) written out operation by operation for the two lanes of an f64x2,
  ;; every branch computed and each lane's own chosen by bitselect, so each lane gets the same operations as the
  ;; scalar function. Pairs with a margin outside 2^-14 <= |m| <= 700 (where fdlibm takes branches not written out
  ;; here: exp's tiny and subnormal results, log1p near 1) or NaN, and an odd last row, call the imported functions.
  ;; Two passes over the rows (exp into r first, then log1p, the loss and the residual), each in groups of eight rows:
  ;; the steps of the group's four row pairs interleaved (their values in locals suffixed _b, _c, _d), so the long
  ;; dependency chains of neighbouring pairs overlap; a group with a margin outside the range, and the rows after the
  ;; last whole group, go pair by pair ($expPair, $sums2).

  ;; e = exp(-|m|) of the pair of rows at byte offset o into r (the first pass for one pair).
  (func $expPair (param $m i32) (param $r i32) (param $o i32)
        (local $mv v128) (local $a v128) (local $x v128) (local $t v128) (local $hi v128) (local $lo v128) (local $xr v128)
    (local $t2 v128) (local $c v128) (local $e v128)
        (local.set $mv (v128.load (i32.add (local.get $m) (local.get $o))))
        (local.set $a (f64x2.abs (local.get $mv)))
        (if (i64x2.all_true (v128.and (f64x2.ge (local.get $a) (v128.const f64x2 0x1p-14 0x1p-14)) (f64x2.le (local.get $a) (v128.const f64x2 700 700))))
          (then
            ;; e = exp(x), x = -|m| in [-700, -2^-14]: k = 0 when |x| <= 0.5 ln2 (fdlibm's high-word test), else
            ;; trunc(x / ln2 - 0.5) (for |x| < 1.5 ln2 that is -1, whose hi and lo are fdlibm's table values).
            (local.set $x (f64x2.neg (local.get $a)))
            (local.set $t (v128.and
              (f64x2.trunc (f64x2.add (f64x2.mul (v128.const f64x2 1.44269504088896338700e+00 1.44269504088896338700e+00) (local.get $x)) (v128.const f64x2 -0.5 -0.5)))
              (i64x2.gt_s (local.get $a) (v128.const i64x2 0x3fd62e42ffffffff 0x3fd62e42ffffffff))))
            (local.set $hi (f64x2.sub (local.get $x) (f64x2.mul (local.get $t) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01))))
            (local.set $lo (f64x2.mul (local.get $t) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10)))
            (local.set $xr (f64x2.sub (local.get $hi) (local.get $lo)))
            (local.set $t2 (f64x2.mul (local.get $xr) (local.get $xr)))
            (local.set $c (v128.const f64x2 4.13813679705723846039e-08 4.13813679705723846039e-08))
            (local.set $c (f64x2.add (v128.const f64x2 -1.65339022054652515390e-06 -1.65339022054652515390e-06) (f64x2.mul (local.get $t2) (local.get $c))))
            (local.set $c (f64x2.add (v128.const f64x2 6.61375632143793436117e-05 6.61375632143793436117e-05) (f64x2.mul (local.get $t2) (local.get $c))))
            (local.set $c (f64x2.add (v128.const f64x2 -2.77777777770155933842e-03 -2.77777777770155933842e-03) (f64x2.mul (local.get $t2) (local.get $c))))
            (local.set $c (f64x2.add (v128.const f64x2 1.66666666666666019037e-01 1.66666666666666019037e-01) (f64x2.mul (local.get $t2) (local.get $c))))
            (local.set $c (f64x2.sub (local.get $xr) (f64x2.mul (local.get $t2) (local.get $c))))
            ;; y = 1 - ((lo - x c / (2 - c)) - hi), times 2^k (k >= -1010 here, a normal power of two).
            (local.set $e (f64x2.mul
              (f64x2.sub (v128.const f64x2 1 1) (f64x2.sub (f64x2.sub (local.get $lo) (f64x2.div (f64x2.mul (local.get $xr) (local.get $c)) (f64x2.sub (v128.const f64x2 2 2) (local.get $c)))) (local.get $hi)))
              (i64x2.shl (i64x2.add (i64x2.extend_low_i32x4_s (i32x4.trunc_sat_f64x2_s_zero (local.get $t))) (v128.const i64x2 1023 1023)) (i32.const 52))))
            (v128.store (i32.add (local.get $r) (local.get $o)) (local.get $e)))
          (else
            (f64.store (i32.add (local.get $r) (local.get $o)) (call $exp (f64.neg (f64.abs (f64.load (i32.add (local.get $m) (local.get $o)))))))
            (f64.store offset=8 (i32.add (local.get $r) (local.get $o)) (call $exp (f64.neg (f64.abs (f64.load offset=8 (i32.add (local.get $m) (local.get $o))))))))))

  ;; The first pass: e = exp(-|m|) of every row pair into r, groups of eight rows interleaved; an odd last row is left to
  ;; the second pass.
  (func $exps (param $m i32) (param $r i32) (param $rows i32)
    (local $i i32) (local $o i32) (local $o1 i32) (local $o2 i32) (local $o3 i32)
    (local $mv v128) (local $a v128) (local $x v128) (local $t v128) (local $hi v128) (local $lo v128) (local $xr v128)
    (local $t2 v128) (local $c v128) (local $e v128)
    (local $mv_b v128) (local $a_b v128) (local $x_b v128) (local $t_b v128) (local $hi_b v128) (local $lo_b v128) (local $xr_b v128) (local $t2_b v128) (local $c_b v128) (local $e_b v128) (local $mv_c v128) (local $a_c v128) (local $x_c v128) (local $t_c v128) (local $hi_c v128) (local $lo_c v128) (local $xr_c v128) (local $t2_c v128) (local $c_c v128) (local $e_c v128) (local $mv_d v128) (local $a_d v128) (local $x_d v128) (local $t_d v128) (local $hi_d v128) (local $lo_d v128) (local $xr_d v128) (local $t2_d v128) (local $c_d v128) (local $e_d v128)
    (local.set $i (i32.const 0))
    (block $groupsDone
      (loop $groups
        (br_if $groupsDone (i32.gt_u (i32.add (local.get $i) (i32.const 8)) (local.get $rows)))
        (local.set $o (i32.shl (local.get $i) (i32.const 3)))
        (local.set $o1 (i32.add (local.get $o) (i32.const 16)))
        (local.set $o2 (i32.add (local.get $o) (i32.const 32)))
        (local.set $o3 (i32.add (local.get $o) (i32.const 48)))
        (local.set $mv (v128.load (i32.add (local.get $m) (local.get $o))))
        (local.set $mv_b (v128.load (i32.add (local.get $m) (local.get $o1))))
        (local.set $mv_c (v128.load (i32.add (local.get $m) (local.get $o2))))
        (local.set $mv_d (v128.load (i32.add (local.get $m) (local.get $o3))))
        (local.set $a (f64x2.abs (local.get $mv)))
        (local.set $a_b (f64x2.abs (local.get $mv_b)))
        (local.set $a_c (f64x2.abs (local.get $mv_c)))
        (local.set $a_d (f64x2.abs (local.get $mv_d)))
        (if (i64x2.all_true (v128.and (v128.and (v128.and (v128.and (f64x2.ge (local.get $a) (v128.const f64x2 0x1p-14 0x1p-14)) (f64x2.le (local.get $a) (v128.const f64x2 700 700))) (v128.and (f64x2.ge (local.get $a_b) (v128.const f64x2 0x1p-14 0x1p-14)) (f64x2.le (local.get $a_b) (v128.const f64x2 700 700)))) (v128.and (f64x2.ge (local.get $a_c) (v128.const f64x2 0x1p-14 0x1p-14)) (f64x2.le (local.get $a_c) (v128.const f64x2 700 700)))) (v128.and (f64x2.ge (local.get $a_d) (v128.const f64x2 0x1p-14 0x1p-14)) (f64x2.le (local.get $a_d) (v128.const f64x2 700 700)))))
          (then
            (local.set $x (f64x2.neg (local.get $a)))
            (local.set $x_b (f64x2.neg (local.get $a_b)))
            (local.set $x_c (f64x2.neg (local.get $a_c)))
            (local.set $x_d (f64x2.neg (local.get $a_d)))
            (local.set $t (v128.and
              (f64x2.trunc (f64x2.add (f64x2.mul (v128.const f64x2 1.44269504088896338700e+00 1.44269504088896338700e+00) (local.get $x)) (v128.const f64x2 -0.5 -0.5)))
              (i64x2.gt_s (local.get $a) (v128.const i64x2 0x3fd62e42ffffffff 0x3fd62e42ffffffff))))
            (local.set $t_b (v128.and
              (f64x2.trunc (f64x2.add (f64x2.mul (v128.const f64x2 1.44269504088896338700e+00 1.44269504088896338700e+00) (local.get $x_b)) (v128.const f64x2 -0.5 -0.5)))
              (i64x2.gt_s (local.get $a_b) (v128.const i64x2 0x3fd62e42ffffffff 0x3fd62e42ffffffff))))
            (local.set $t_c (v128.and
              (f64x2.trunc (f64x2.add (f64x2.mul (v128.const f64x2 1.44269504088896338700e+00 1.44269504088896338700e+00) (local.get $x_c)) (v128.const f64x2 -0.5 -0.5)))
              (i64x2.gt_s (local.get $a_c) (v128.const i64x2 0x3fd62e42ffffffff 0x3fd62e42ffffffff))))
            (local.set $t_d (v128.and
              (f64x2.trunc (f64x2.add (f64x2.mul (v128.const f64x2 1.44269504088896338700e+00 1.44269504088896338700e+00) (local.get $x_d)) (v128.const f64x2 -0.5 -0.5)))
              (i64x2.gt_s (local.get $a_d) (v128.const i64x2 0x3fd62e42ffffffff 0x3fd62e42ffffffff))))
            (local.set $hi (f64x2.sub (local.get $x) (f64x2.mul (local.get $t) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01))))
            (local.set $hi_b (f64x2.sub (local.get $x_b) (f64x2.mul (local.get $t_b) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01))))
            (local.set $hi_c (f64x2.sub (local.get $x_c) (f64x2.mul (local.get $t_c) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01))))
            (local.set $hi_d (f64x2.sub (local.get $x_d) (f64x2.mul (local.get $t_d) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01))))
            (local.set $lo (f64x2.mul (local.get $t) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10)))
            (local.set $lo_b (f64x2.mul (local.get $t_b) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10)))
            (local.set $lo_c (f64x2.mul (local.get $t_c) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10)))
            (local.set $lo_d (f64x2.mul (local.get $t_d) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10)))
            (local.set $xr (f64x2.sub (local.get $hi) (local.get $lo)))
            (local.set $xr_b (f64x2.sub (local.get $hi_b) (local.get $lo_b)))
            (local.set $xr_c (f64x2.sub (local.get $hi_c) (local.get $lo_c)))
            (local.set $xr_d (f64x2.sub (local.get $hi_d) (local.get $lo_d)))
            (local.set $t2 (f64x2.mul (local.get $xr) (local.get $xr)))
            (local.set $t2_b (f64x2.mul (local.get $xr_b) (local.get $xr_b)))
            (local.set $t2_c (f64x2.mul (local.get $xr_c) (local.get $xr_c)))
            (local.set $t2_d (f64x2.mul (local.get $xr_d) (local.get $xr_d)))
            (local.set $c (v128.const f64x2 4.13813679705723846039e-08 4.13813679705723846039e-08))
            (local.set $c_b (v128.const f64x2 4.13813679705723846039e-08 4.13813679705723846039e-08))
            (local.set $c_c (v128.const f64x2 4.13813679705723846039e-08 4.13813679705723846039e-08))
            (local.set $c_d (v128.const f64x2 4.13813679705723846039e-08 4.13813679705723846039e-08))
            (local.set $c (f64x2.add (v128.const f64x2 -1.65339022054652515390e-06 -1.65339022054652515390e-06) (f64x2.mul (local.get $t2) (local.get $c))))
            (local.set $c_b (f64x2.add (v128.const f64x2 -1.65339022054652515390e-06 -1.65339022054652515390e-06) (f64x2.mul (local.get $t2_b) (local.get $c_b))))
            (local.set $c_c (f64x2.add (v128.const f64x2 -1.65339022054652515390e-06 -1.65339022054652515390e-06) (f64x2.mul (local.get $t2_c) (local.get $c_c))))
            (local.set $c_d (f64x2.add (v128.const f64x2 -1.65339022054652515390e-06 -1.65339022054652515390e-06) (f64x2.mul (local.get $t2_d) (local.get $c_d))))
            (local.set $c (f64x2.add (v128.const f64x2 6.61375632143793436117e-05 6.61375632143793436117e-05) (f64x2.mul (local.get $t2) (local.get $c))))
            (local.set $c_b (f64x2.add (v128.const f64x2 6.61375632143793436117e-05 6.61375632143793436117e-05) (f64x2.mul (local.get $t2_b) (local.get $c_b))))
            (local.set $c_c (f64x2.add (v128.const f64x2 6.61375632143793436117e-05 6.61375632143793436117e-05) (f64x2.mul (local.get $t2_c) (local.get $c_c))))
            (local.set $c_d (f64x2.add (v128.const f64x2 6.61375632143793436117e-05 6.61375632143793436117e-05) (f64x2.mul (local.get $t2_d) (local.get $c_d))))
            (local.set $c (f64x2.add (v128.const f64x2 -2.77777777770155933842e-03 -2.77777777770155933842e-03) (f64x2.mul (local.get $t2) (local.get $c))))
            (local.set $c_b (f64x2.add (v128.const f64x2 -2.77777777770155933842e-03 -2.77777777770155933842e-03) (f64x2.mul (local.get $t2_b) (local.get $c_b))))
            (local.set $c_c (f64x2.add (v128.const f64x2 -2.77777777770155933842e-03 -2.77777777770155933842e-03) (f64x2.mul (local.get $t2_c) (local.get $c_c))))
            (local.set $c_d (f64x2.add (v128.const f64x2 -2.77777777770155933842e-03 -2.77777777770155933842e-03) (f64x2.mul (local.get $t2_d) (local.get $c_d))))
            (local.set $c (f64x2.add (v128.const f64x2 1.66666666666666019037e-01 1.66666666666666019037e-01) (f64x2.mul (local.get $t2) (local.get $c))))
            (local.set $c_b (f64x2.add (v128.const f64x2 1.66666666666666019037e-01 1.66666666666666019037e-01) (f64x2.mul (local.get $t2_b) (local.get $c_b))))
            (local.set $c_c (f64x2.add (v128.const f64x2 1.66666666666666019037e-01 1.66666666666666019037e-01) (f64x2.mul (local.get $t2_c) (local.get $c_c))))
            (local.set $c_d (f64x2.add (v128.const f64x2 1.66666666666666019037e-01 1.66666666666666019037e-01) (f64x2.mul (local.get $t2_d) (local.get $c_d))))
            (local.set $c (f64x2.sub (local.get $xr) (f64x2.mul (local.get $t2) (local.get $c))))
            (local.set $c_b (f64x2.sub (local.get $xr_b) (f64x2.mul (local.get $t2_b) (local.get $c_b))))
            (local.set $c_c (f64x2.sub (local.get $xr_c) (f64x2.mul (local.get $t2_c) (local.get $c_c))))
            (local.set $c_d (f64x2.sub (local.get $xr_d) (f64x2.mul (local.get $t2_d) (local.get $c_d))))
            (local.set $e (f64x2.mul
              (f64x2.sub (v128.const f64x2 1 1) (f64x2.sub (f64x2.sub (local.get $lo) (f64x2.div (f64x2.mul (local.get $xr) (local.get $c)) (f64x2.sub (v128.const f64x2 2 2) (local.get $c)))) (local.get $hi)))
              (i64x2.shl (i64x2.add (i64x2.extend_low_i32x4_s (i32x4.trunc_sat_f64x2_s_zero (local.get $t))) (v128.const i64x2 1023 1023)) (i32.const 52))))
            (local.set $e_b (f64x2.mul
              (f64x2.sub (v128.const f64x2 1 1) (f64x2.sub (f64x2.sub (local.get $lo_b) (f64x2.div (f64x2.mul (local.get $xr_b) (local.get $c_b)) (f64x2.sub (v128.const f64x2 2 2) (local.get $c_b)))) (local.get $hi_b)))
              (i64x2.shl (i64x2.add (i64x2.extend_low_i32x4_s (i32x4.trunc_sat_f64x2_s_zero (local.get $t_b))) (v128.const i64x2 1023 1023)) (i32.const 52))))
            (local.set $e_c (f64x2.mul
              (f64x2.sub (v128.const f64x2 1 1) (f64x2.sub (f64x2.sub (local.get $lo_c) (f64x2.div (f64x2.mul (local.get $xr_c) (local.get $c_c)) (f64x2.sub (v128.const f64x2 2 2) (local.get $c_c)))) (local.get $hi_c)))
              (i64x2.shl (i64x2.add (i64x2.extend_low_i32x4_s (i32x4.trunc_sat_f64x2_s_zero (local.get $t_c))) (v128.const i64x2 1023 1023)) (i32.const 52))))
            (local.set $e_d (f64x2.mul
              (f64x2.sub (v128.const f64x2 1 1) (f64x2.sub (f64x2.sub (local.get $lo_d) (f64x2.div (f64x2.mul (local.get $xr_d) (local.get $c_d)) (f64x2.sub (v128.const f64x2 2 2) (local.get $c_d)))) (local.get $hi_d)))
              (i64x2.shl (i64x2.add (i64x2.extend_low_i32x4_s (i32x4.trunc_sat_f64x2_s_zero (local.get $t_d))) (v128.const i64x2 1023 1023)) (i32.const 52))))
            (v128.store (i32.add (local.get $r) (local.get $o)) (local.get $e))
            (v128.store (i32.add (local.get $r) (local.get $o1)) (local.get $e_b))
            (v128.store (i32.add (local.get $r) (local.get $o2)) (local.get $e_c))
            (v128.store (i32.add (local.get $r) (local.get $o3)) (local.get $e_d)))
          (else
            (call $expPair (local.get $m) (local.get $r) (local.get $o))
            (call $expPair (local.get $m) (local.get $r) (local.get $o1))
            (call $expPair (local.get $m) (local.get $r) (local.get $o2))
            (call $expPair (local.get $m) (local.get $r) (local.get $o3))))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $groups)))
    (block $pairsDone
      (loop $pairs
        (br_if $pairsDone (i32.gt_u (i32.add (local.get $i) (i32.const 2)) (local.get $rows)))
        (call $expPair (local.get $m) (local.get $r) (i32.shl (local.get $i) (i32.const 3)))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $pairs))))

  ;; `residuals`: the first pass, then the second (log1p, the loss and the residual of each row, the sums in row order)
  ;; in groups of eight rows interleaved.
  (func $residuals (export "residuals") (param $m i32) (param $y i32) (param $w i32) (param $r i32) (param $rows i32) (param $acc i32)
    (local $i i32) (local $o i32) (local $loss f64) (local $gb f64)
    (local $mv v128) (local $a v128)
    (local $e v128) (local $l v128) (local $u v128) (local $cu v128) (local $f v128) (local $k1 v128) (local $hfsq v128) (local $s v128) (local $z v128) (local $R v128) (local $bits v128) (local $p v128) (local $lossv v128) (local $rv v128) (local $yv v128) (local $wv v128)
    (local $o1 i32) (local $o2 i32) (local $o3 i32) (local $rest i32)
    (local $mv_b v128) (local $a_b v128) (local $e_b v128) (local $u_b v128) (local $cu_b v128) (local $f_b v128) (local $k1_b v128) (local $hfsq_b v128) (local $s_b v128) (local $z_b v128) (local $R_b v128) (local $l_b v128) (local $lossv_b v128) (local $rv_b v128) (local $bits_b v128) (local $yv_b v128) (local $wv_b v128) (local $p_b v128) (local $mv_c v128) (local $a_c v128) (local $e_c v128) (local $u_c v128) (local $cu_c v128) (local $f_c v128) (local $k1_c v128) (local $hfsq_c v128) (local $s_c v128) (local $z_c v128) (local $R_c v128) (local $l_c v128) (local $lossv_c v128) (local $rv_c v128) (local $bits_c v128) (local $yv_c v128) (local $wv_c v128) (local $p_c v128) (local $mv_d v128) (local $a_d v128) (local $e_d v128) (local $u_d v128) (local $cu_d v128) (local $f_d v128) (local $k1_d v128) (local $hfsq_d v128) (local $s_d v128) (local $z_d v128) (local $R_d v128) (local $l_d v128) (local $lossv_d v128) (local $rv_d v128) (local $bits_d v128) (local $yv_d v128) (local $wv_d v128) (local $p_d v128)
    (call $exps (local.get $m) (local.get $r) (local.get $rows))
    (local.set $loss (f64.load (local.get $acc)))
    (local.set $gb (f64.load offset=8 (local.get $acc)))
    (local.set $i (i32.const 0))
    (block $groupsDone
      (loop $groups
        (br_if $groupsDone (i32.gt_u (i32.add (local.get $i) (i32.const 8)) (local.get $rows)))
        (local.set $o (i32.shl (local.get $i) (i32.const 3)))
        (local.set $o1 (i32.add (local.get $o) (i32.const 16)))
        (local.set $o2 (i32.add (local.get $o) (i32.const 32)))
        (local.set $o3 (i32.add (local.get $o) (i32.const 48)))
        (local.set $mv (v128.load (i32.add (local.get $m) (local.get $o))))
        (local.set $mv_b (v128.load (i32.add (local.get $m) (local.get $o1))))
        (local.set $mv_c (v128.load (i32.add (local.get $m) (local.get $o2))))
        (local.set $mv_d (v128.load (i32.add (local.get $m) (local.get $o3))))
        (local.set $a (f64x2.abs (local.get $mv)))
        (local.set $a_b (f64x2.abs (local.get $mv_b)))
        (local.set $a_c (f64x2.abs (local.get $mv_c)))
        (local.set $a_d (f64x2.abs (local.get $mv_d)))
        (if (i64x2.all_true (v128.and (v128.and (v128.and (v128.and (f64x2.ge (local.get $a) (v128.const f64x2 0x1p-14 0x1p-14)) (f64x2.le (local.get $a) (v128.const f64x2 700 700))) (v128.and (f64x2.ge (local.get $a_b) (v128.const f64x2 0x1p-14 0x1p-14)) (f64x2.le (local.get $a_b) (v128.const f64x2 700 700)))) (v128.and (f64x2.ge (local.get $a_c) (v128.const f64x2 0x1p-14 0x1p-14)) (f64x2.le (local.get $a_c) (v128.const f64x2 700 700)))) (v128.and (f64x2.ge (local.get $a_d) (v128.const f64x2 0x1p-14 0x1p-14)) (f64x2.le (local.get $a_d) (v128.const f64x2 700 700)))))
          (then
            (local.set $e (v128.load (i32.add (local.get $r) (local.get $o))))
            (local.set $e_b (v128.load (i32.add (local.get $r) (local.get $o1))))
            (local.set $e_c (v128.load (i32.add (local.get $r) (local.get $o2))))
            (local.set $e_d (v128.load (i32.add (local.get $r) (local.get $o3))))
            (local.set $bits (local.get $e))
            (local.set $bits_b (local.get $e_b))
            (local.set $bits_c (local.get $e_c))
            (local.set $bits_d (local.get $e_d))
            (local.set $u (f64x2.add (v128.const f64x2 1 1) (local.get $e)))
            (local.set $u_b (f64x2.add (v128.const f64x2 1 1) (local.get $e_b)))
            (local.set $u_c (f64x2.add (v128.const f64x2 1 1) (local.get $e_c)))
            (local.set $u_d (f64x2.add (v128.const f64x2 1 1) (local.get $e_d)))
            (local.set $cu (f64x2.div (f64x2.sub (local.get $e) (f64x2.sub (local.get $u) (v128.const f64x2 1 1))) (local.get $u)))
            (local.set $cu_b (f64x2.div (f64x2.sub (local.get $e_b) (f64x2.sub (local.get $u_b) (v128.const f64x2 1 1))) (local.get $u_b)))
            (local.set $cu_c (f64x2.div (f64x2.sub (local.get $e_c) (f64x2.sub (local.get $u_c) (v128.const f64x2 1 1))) (local.get $u_c)))
            (local.set $cu_d (f64x2.div (f64x2.sub (local.get $e_d) (f64x2.sub (local.get $u_d) (v128.const f64x2 1 1))) (local.get $u_d)))
            (local.set $k1 (v128.and
              (i64x2.ge_s (local.get $bits) (v128.const i64x2 0x3fda827a00000000 0x3fda827a00000000))
              (i64x2.ge_s (v128.and (local.get $u) (v128.const i64x2 0x000fffff00000000 0x000fffff00000000)) (v128.const i64x2 0x0006a09e00000000 0x0006a09e00000000))))
            (local.set $k1_b (v128.and
              (i64x2.ge_s (local.get $bits_b) (v128.const i64x2 0x3fda827a00000000 0x3fda827a00000000))
              (i64x2.ge_s (v128.and (local.get $u_b) (v128.const i64x2 0x000fffff00000000 0x000fffff00000000)) (v128.const i64x2 0x0006a09e00000000 0x0006a09e00000000))))
            (local.set $k1_c (v128.and
              (i64x2.ge_s (local.get $bits_c) (v128.const i64x2 0x3fda827a00000000 0x3fda827a00000000))
              (i64x2.ge_s (v128.and (local.get $u_c) (v128.const i64x2 0x000fffff00000000 0x000fffff00000000)) (v128.const i64x2 0x0006a09e00000000 0x0006a09e00000000))))
            (local.set $k1_d (v128.and
              (i64x2.ge_s (local.get $bits_d) (v128.const i64x2 0x3fda827a00000000 0x3fda827a00000000))
              (i64x2.ge_s (v128.and (local.get $u_d) (v128.const i64x2 0x000fffff00000000 0x000fffff00000000)) (v128.const i64x2 0x0006a09e00000000 0x0006a09e00000000))))
            (local.set $f (v128.bitselect
              (f64x2.sub (v128.bitselect (f64x2.mul (local.get $u) (v128.const f64x2 0.5 0.5)) (local.get $u) (local.get $k1)) (v128.const f64x2 1 1))
              (local.get $e)
              (i64x2.ge_s (local.get $bits) (v128.const i64x2 0x3fda827a00000000 0x3fda827a00000000))))
            (local.set $f_b (v128.bitselect
              (f64x2.sub (v128.bitselect (f64x2.mul (local.get $u_b) (v128.const f64x2 0.5 0.5)) (local.get $u_b) (local.get $k1_b)) (v128.const f64x2 1 1))
              (local.get $e_b)
              (i64x2.ge_s (local.get $bits_b) (v128.const i64x2 0x3fda827a00000000 0x3fda827a00000000))))
            (local.set $f_c (v128.bitselect
              (f64x2.sub (v128.bitselect (f64x2.mul (local.get $u_c) (v128.const f64x2 0.5 0.5)) (local.get $u_c) (local.get $k1_c)) (v128.const f64x2 1 1))
              (local.get $e_c)
              (i64x2.ge_s (local.get $bits_c) (v128.const i64x2 0x3fda827a00000000 0x3fda827a00000000))))
            (local.set $f_d (v128.bitselect
              (f64x2.sub (v128.bitselect (f64x2.mul (local.get $u_d) (v128.const f64x2 0.5 0.5)) (local.get $u_d) (local.get $k1_d)) (v128.const f64x2 1 1))
              (local.get $e_d)
              (i64x2.ge_s (local.get $bits_d) (v128.const i64x2 0x3fda827a00000000 0x3fda827a00000000))))
            (local.set $hfsq (f64x2.mul (f64x2.mul (v128.const f64x2 0.5 0.5) (local.get $f)) (local.get $f)))
            (local.set $hfsq_b (f64x2.mul (f64x2.mul (v128.const f64x2 0.5 0.5) (local.get $f_b)) (local.get $f_b)))
            (local.set $hfsq_c (f64x2.mul (f64x2.mul (v128.const f64x2 0.5 0.5) (local.get $f_c)) (local.get $f_c)))
            (local.set $hfsq_d (f64x2.mul (f64x2.mul (v128.const f64x2 0.5 0.5) (local.get $f_d)) (local.get $f_d)))
            (local.set $s (f64x2.div (local.get $f) (f64x2.add (v128.const f64x2 2 2) (local.get $f))))
            (local.set $s_b (f64x2.div (local.get $f_b) (f64x2.add (v128.const f64x2 2 2) (local.get $f_b))))
            (local.set $s_c (f64x2.div (local.get $f_c) (f64x2.add (v128.const f64x2 2 2) (local.get $f_c))))
            (local.set $s_d (f64x2.div (local.get $f_d) (f64x2.add (v128.const f64x2 2 2) (local.get $f_d))))
            (local.set $z (f64x2.mul (local.get $s) (local.get $s)))
            (local.set $z_b (f64x2.mul (local.get $s_b) (local.get $s_b)))
            (local.set $z_c (f64x2.mul (local.get $s_c) (local.get $s_c)))
            (local.set $z_d (f64x2.mul (local.get $s_d) (local.get $s_d)))
            (local.set $R (v128.const f64x2 1.479819860511658591e-01 1.479819860511658591e-01))
            (local.set $R_b (v128.const f64x2 1.479819860511658591e-01 1.479819860511658591e-01))
            (local.set $R_c (v128.const f64x2 1.479819860511658591e-01 1.479819860511658591e-01))
            (local.set $R_d (v128.const f64x2 1.479819860511658591e-01 1.479819860511658591e-01))
            (local.set $R (f64x2.add (v128.const f64x2 1.531383769920937332e-01 1.531383769920937332e-01) (f64x2.mul (local.get $z) (local.get $R))))
            (local.set $R_b (f64x2.add (v128.const f64x2 1.531383769920937332e-01 1.531383769920937332e-01) (f64x2.mul (local.get $z_b) (local.get $R_b))))
            (local.set $R_c (f64x2.add (v128.const f64x2 1.531383769920937332e-01 1.531383769920937332e-01) (f64x2.mul (local.get $z_c) (local.get $R_c))))
            (local.set $R_d (f64x2.add (v128.const f64x2 1.531383769920937332e-01 1.531383769920937332e-01) (f64x2.mul (local.get $z_d) (local.get $R_d))))
            (local.set $R (f64x2.add (v128.const f64x2 1.818357216161805012e-01 1.818357216161805012e-01) (f64x2.mul (local.get $z) (local.get $R))))
            (local.set $R_b (f64x2.add (v128.const f64x2 1.818357216161805012e-01 1.818357216161805012e-01) (f64x2.mul (local.get $z_b) (local.get $R_b))))
            (local.set $R_c (f64x2.add (v128.const f64x2 1.818357216161805012e-01 1.818357216161805012e-01) (f64x2.mul (local.get $z_c) (local.get $R_c))))
            (local.set $R_d (f64x2.add (v128.const f64x2 1.818357216161805012e-01 1.818357216161805012e-01) (f64x2.mul (local.get $z_d) (local.get $R_d))))
            (local.set $R (f64x2.add (v128.const f64x2 2.222219843214978396e-01 2.222219843214978396e-01) (f64x2.mul (local.get $z) (local.get $R))))
            (local.set $R_b (f64x2.add (v128.const f64x2 2.222219843214978396e-01 2.222219843214978396e-01) (f64x2.mul (local.get $z_b) (local.get $R_b))))
            (local.set $R_c (f64x2.add (v128.const f64x2 2.222219843214978396e-01 2.222219843214978396e-01) (f64x2.mul (local.get $z_c) (local.get $R_c))))
            (local.set $R_d (f64x2.add (v128.const f64x2 2.222219843214978396e-01 2.222219843214978396e-01) (f64x2.mul (local.get $z_d) (local.get $R_d))))
            (local.set $R (f64x2.add (v128.const f64x2 2.857142874366239149e-01 2.857142874366239149e-01) (f64x2.mul (local.get $z) (local.get $R))))
            (local.set $R_b (f64x2.add (v128.const f64x2 2.857142874366239149e-01 2.857142874366239149e-01) (f64x2.mul (local.get $z_b) (local.get $R_b))))
            (local.set $R_c (f64x2.add (v128.const f64x2 2.857142874366239149e-01 2.857142874366239149e-01) (f64x2.mul (local.get $z_c) (local.get $R_c))))
            (local.set $R_d (f64x2.add (v128.const f64x2 2.857142874366239149e-01 2.857142874366239149e-01) (f64x2.mul (local.get $z_d) (local.get $R_d))))
            (local.set $R (f64x2.add (v128.const f64x2 3.999999999940941908e-01 3.999999999940941908e-01) (f64x2.mul (local.get $z) (local.get $R))))
            (local.set $R_b (f64x2.add (v128.const f64x2 3.999999999940941908e-01 3.999999999940941908e-01) (f64x2.mul (local.get $z_b) (local.get $R_b))))
            (local.set $R_c (f64x2.add (v128.const f64x2 3.999999999940941908e-01 3.999999999940941908e-01) (f64x2.mul (local.get $z_c) (local.get $R_c))))
            (local.set $R_d (f64x2.add (v128.const f64x2 3.999999999940941908e-01 3.999999999940941908e-01) (f64x2.mul (local.get $z_d) (local.get $R_d))))
            (local.set $R (f64x2.add (v128.const f64x2 6.666666666666735130e-01 6.666666666666735130e-01) (f64x2.mul (local.get $z) (local.get $R))))
            (local.set $R_b (f64x2.add (v128.const f64x2 6.666666666666735130e-01 6.666666666666735130e-01) (f64x2.mul (local.get $z_b) (local.get $R_b))))
            (local.set $R_c (f64x2.add (v128.const f64x2 6.666666666666735130e-01 6.666666666666735130e-01) (f64x2.mul (local.get $z_c) (local.get $R_c))))
            (local.set $R_d (f64x2.add (v128.const f64x2 6.666666666666735130e-01 6.666666666666735130e-01) (f64x2.mul (local.get $z_d) (local.get $R_d))))
            (local.set $R (f64x2.mul (local.get $z) (local.get $R)))
            (local.set $R_b (f64x2.mul (local.get $z_b) (local.get $R_b)))
            (local.set $R_c (f64x2.mul (local.get $z_c) (local.get $R_c)))
            (local.set $R_d (f64x2.mul (local.get $z_d) (local.get $R_d)))
            (local.set $p (f64x2.mul (local.get $s) (f64x2.add (local.get $hfsq) (local.get $R))))
            (local.set $p_b (f64x2.mul (local.get $s_b) (f64x2.add (local.get $hfsq_b) (local.get $R_b))))
            (local.set $p_c (f64x2.mul (local.get $s_c) (f64x2.add (local.get $hfsq_c) (local.get $R_c))))
            (local.set $p_d (f64x2.mul (local.get $s_d) (f64x2.add (local.get $hfsq_d) (local.get $R_d))))
            (local.set $l (v128.bitselect
              (f64x2.sub (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01)
                (f64x2.sub (f64x2.sub (local.get $hfsq) (f64x2.add (local.get $p) (f64x2.add (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10) (local.get $cu)))) (local.get $f)))
              (f64x2.sub (local.get $f) (f64x2.sub (local.get $hfsq) (local.get $p)))
              (local.get $k1)))
            (local.set $l_b (v128.bitselect
              (f64x2.sub (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01)
                (f64x2.sub (f64x2.sub (local.get $hfsq_b) (f64x2.add (local.get $p_b) (f64x2.add (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10) (local.get $cu_b)))) (local.get $f_b)))
              (f64x2.sub (local.get $f_b) (f64x2.sub (local.get $hfsq_b) (local.get $p_b)))
              (local.get $k1_b)))
            (local.set $l_c (v128.bitselect
              (f64x2.sub (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01)
                (f64x2.sub (f64x2.sub (local.get $hfsq_c) (f64x2.add (local.get $p_c) (f64x2.add (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10) (local.get $cu_c)))) (local.get $f_c)))
              (f64x2.sub (local.get $f_c) (f64x2.sub (local.get $hfsq_c) (local.get $p_c)))
              (local.get $k1_c)))
            (local.set $l_d (v128.bitselect
              (f64x2.sub (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01)
                (f64x2.sub (f64x2.sub (local.get $hfsq_d) (f64x2.add (local.get $p_d) (f64x2.add (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10) (local.get $cu_d)))) (local.get $f_d)))
              (f64x2.sub (local.get $f_d) (f64x2.sub (local.get $hfsq_d) (local.get $p_d)))
              (local.get $k1_d)))
            (local.set $l (v128.bitselect
              (v128.bitselect (local.get $e) (f64x2.sub (local.get $e) (f64x2.mul (f64x2.mul (local.get $e) (local.get $e)) (v128.const f64x2 0.5 0.5)))
                (i64x2.lt_s (local.get $bits) (v128.const i64x2 0x3c90000000000000 0x3c90000000000000)))
              (local.get $l)
              (i64x2.lt_s (local.get $bits) (v128.const i64x2 0x3e20000000000000 0x3e20000000000000))))
            (local.set $l_b (v128.bitselect
              (v128.bitselect (local.get $e_b) (f64x2.sub (local.get $e_b) (f64x2.mul (f64x2.mul (local.get $e_b) (local.get $e_b)) (v128.const f64x2 0.5 0.5)))
                (i64x2.lt_s (local.get $bits_b) (v128.const i64x2 0x3c90000000000000 0x3c90000000000000)))
              (local.get $l_b)
              (i64x2.lt_s (local.get $bits_b) (v128.const i64x2 0x3e20000000000000 0x3e20000000000000))))
            (local.set $l_c (v128.bitselect
              (v128.bitselect (local.get $e_c) (f64x2.sub (local.get $e_c) (f64x2.mul (f64x2.mul (local.get $e_c) (local.get $e_c)) (v128.const f64x2 0.5 0.5)))
                (i64x2.lt_s (local.get $bits_c) (v128.const i64x2 0x3c90000000000000 0x3c90000000000000)))
              (local.get $l_c)
              (i64x2.lt_s (local.get $bits_c) (v128.const i64x2 0x3e20000000000000 0x3e20000000000000))))
            (local.set $l_d (v128.bitselect
              (v128.bitselect (local.get $e_d) (f64x2.sub (local.get $e_d) (f64x2.mul (f64x2.mul (local.get $e_d) (local.get $e_d)) (v128.const f64x2 0.5 0.5)))
                (i64x2.lt_s (local.get $bits_d) (v128.const i64x2 0x3c90000000000000 0x3c90000000000000)))
              (local.get $l_d)
              (i64x2.lt_s (local.get $bits_d) (v128.const i64x2 0x3e20000000000000 0x3e20000000000000))))
            (local.set $yv (v128.load (i32.add (local.get $y) (local.get $o))))
            (local.set $yv_b (v128.load (i32.add (local.get $y) (local.get $o1))))
            (local.set $yv_c (v128.load (i32.add (local.get $y) (local.get $o2))))
            (local.set $yv_d (v128.load (i32.add (local.get $y) (local.get $o3))))
            (local.set $wv (v128.load (i32.add (local.get $w) (local.get $o))))
            (local.set $wv_b (v128.load (i32.add (local.get $w) (local.get $o1))))
            (local.set $wv_c (v128.load (i32.add (local.get $w) (local.get $o2))))
            (local.set $wv_d (v128.load (i32.add (local.get $w) (local.get $o3))))
            (local.set $lossv (f64x2.mul (local.get $wv)
              (f64x2.sub (f64x2.add (v128.and (local.get $mv) (f64x2.gt (local.get $mv) (v128.const f64x2 0 0))) (local.get $l)) (f64x2.mul (local.get $yv) (local.get $mv)))))
            (local.set $lossv_b (f64x2.mul (local.get $wv_b)
              (f64x2.sub (f64x2.add (v128.and (local.get $mv_b) (f64x2.gt (local.get $mv_b) (v128.const f64x2 0 0))) (local.get $l_b)) (f64x2.mul (local.get $yv_b) (local.get $mv_b)))))
            (local.set $lossv_c (f64x2.mul (local.get $wv_c)
              (f64x2.sub (f64x2.add (v128.and (local.get $mv_c) (f64x2.gt (local.get $mv_c) (v128.const f64x2 0 0))) (local.get $l_c)) (f64x2.mul (local.get $yv_c) (local.get $mv_c)))))
            (local.set $lossv_d (f64x2.mul (local.get $wv_d)
              (f64x2.sub (f64x2.add (v128.and (local.get $mv_d) (f64x2.gt (local.get $mv_d) (v128.const f64x2 0 0))) (local.get $l_d)) (f64x2.mul (local.get $yv_d) (local.get $mv_d)))))
            (local.set $rv (f64x2.mul (local.get $wv)
              (f64x2.sub
                (f64x2.div (v128.bitselect (v128.const f64x2 1 1) (local.get $e) (f64x2.ge (local.get $mv) (v128.const f64x2 0 0))) (f64x2.add (v128.const f64x2 1 1) (local.get $e)))
                (local.get $yv))))
            (local.set $rv_b (f64x2.mul (local.get $wv_b)
              (f64x2.sub
                (f64x2.div (v128.bitselect (v128.const f64x2 1 1) (local.get $e_b) (f64x2.ge (local.get $mv_b) (v128.const f64x2 0 0))) (f64x2.add (v128.const f64x2 1 1) (local.get $e_b)))
                (local.get $yv_b))))
            (local.set $rv_c (f64x2.mul (local.get $wv_c)
              (f64x2.sub
                (f64x2.div (v128.bitselect (v128.const f64x2 1 1) (local.get $e_c) (f64x2.ge (local.get $mv_c) (v128.const f64x2 0 0))) (f64x2.add (v128.const f64x2 1 1) (local.get $e_c)))
                (local.get $yv_c))))
            (local.set $rv_d (f64x2.mul (local.get $wv_d)
              (f64x2.sub
                (f64x2.div (v128.bitselect (v128.const f64x2 1 1) (local.get $e_d) (f64x2.ge (local.get $mv_d) (v128.const f64x2 0 0))) (f64x2.add (v128.const f64x2 1 1) (local.get $e_d)))
                (local.get $yv_d))))
            (v128.store (i32.add (local.get $r) (local.get $o)) (local.get $rv))
            (v128.store (i32.add (local.get $r) (local.get $o1)) (local.get $rv_b))
            (v128.store (i32.add (local.get $r) (local.get $o2)) (local.get $rv_c))
            (v128.store (i32.add (local.get $r) (local.get $o3)) (local.get $rv_d))
            (local.set $loss (f64.add (f64.add (local.get $loss) (f64x2.extract_lane 0 (local.get $lossv))) (f64x2.extract_lane 1 (local.get $lossv))))
            (local.set $loss (f64.add (f64.add (local.get $loss) (f64x2.extract_lane 0 (local.get $lossv_b))) (f64x2.extract_lane 1 (local.get $lossv_b))))
            (local.set $loss (f64.add (f64.add (local.get $loss) (f64x2.extract_lane 0 (local.get $lossv_c))) (f64x2.extract_lane 1 (local.get $lossv_c))))
            (local.set $loss (f64.add (f64.add (local.get $loss) (f64x2.extract_lane 0 (local.get $lossv_d))) (f64x2.extract_lane 1 (local.get $lossv_d))))
            (local.set $gb (f64.add (f64.add (local.get $gb) (f64x2.extract_lane 0 (local.get $rv))) (f64x2.extract_lane 1 (local.get $rv))))
            (local.set $gb (f64.add (f64.add (local.get $gb) (f64x2.extract_lane 0 (local.get $rv_b))) (f64x2.extract_lane 1 (local.get $rv_b))))
            (local.set $gb (f64.add (f64.add (local.get $gb) (f64x2.extract_lane 0 (local.get $rv_c))) (f64x2.extract_lane 1 (local.get $rv_c))))
            (local.set $gb (f64.add (f64.add (local.get $gb) (f64x2.extract_lane 0 (local.get $rv_d))) (f64x2.extract_lane 1 (local.get $rv_d)))))
          (else
            (f64.store (local.get $acc) (local.get $loss))
            (f64.store offset=8 (local.get $acc) (local.get $gb))
            (call $sums2 (i32.add (local.get $m) (local.get $o)) (i32.add (local.get $y) (local.get $o)) (i32.add (local.get $w) (local.get $o))
              (i32.add (local.get $r) (local.get $o)) (i32.const 8) (local.get $acc))
            (local.set $loss (f64.load (local.get $acc)))
            (local.set $gb (f64.load offset=8 (local.get $acc)))))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $groups)))
    (f64.store (local.get $acc) (local.get $loss))
    (f64.store offset=8 (local.get $acc) (local.get $gb))
    (local.set $rest (i32.sub (local.get $rows) (local.get $i)))
    (if (local.get $rest)
      (then
        (local.set $o (i32.shl (local.get $i) (i32.const 3)))
        (call $sums2 (i32.add (local.get $m) (local.get $o)) (i32.add (local.get $y) (local.get $o)) (i32.add (local.get $w) (local.get $o))
          (i32.add (local.get $r) (local.get $o)) (local.get $rest) (local.get $acc)))))

  ;; The second pass for rows [0, rows) pair by pair (a whole group's when one of its margins is outside the vector
  ;; path's range, and the rows after the last group), e read from r, then an odd last row by $residualRow.
  (func $sums2 (param $m i32) (param $y i32) (param $w i32) (param $r i32) (param $rows i32) (param $acc i32)
    (local $i i32) (local $o i32) (local $loss f64) (local $gb f64)
    (local $mv v128) (local $a v128)
    (local $e v128) (local $l v128) (local $u v128) (local $cu v128) (local $f v128) (local $k1 v128) (local $hfsq v128) (local $s v128) (local $z v128) (local $R v128) (local $bits v128) (local $p v128) (local $lossv v128) (local $rv v128) (local $yv v128) (local $wv v128)
    (local.set $loss (f64.load (local.get $acc)))
    (local.set $gb (f64.load offset=8 (local.get $acc)))
    (local.set $i (i32.const 0))
    (block $pairsDone
      (loop $pairs
        (br_if $pairsDone (i32.gt_u (i32.add (local.get $i) (i32.const 2)) (local.get $rows)))
        (local.set $o (i32.shl (local.get $i) (i32.const 3)))
        (local.set $mv (v128.load (i32.add (local.get $m) (local.get $o))))
        (local.set $a (f64x2.abs (local.get $mv)))
        (if (i64x2.all_true (v128.and (f64x2.ge (local.get $a) (v128.const f64x2 0x1p-14 0x1p-14)) (f64x2.le (local.get $a) (v128.const f64x2 700 700))))
          (then
            (local.set $e (v128.load (i32.add (local.get $r) (local.get $o))))
            ;; log1p(e), e in (0, 1 - 2^-15): below 2^-29 e - e e / 2 (e itself below 2^-54); below fdlibm's
            ;; sqrt(2) - 1 test f = e, k = 0; else u = 1 + e, c = (e - (u - 1)) / u, and f = u - 1, k = 0 when u's
            ;; high mantissa bits are below 0x6a09e, f = u / 2 - 1, k = 1 otherwise.
            (local.set $bits (local.get $e))
            (local.set $u (f64x2.add (v128.const f64x2 1 1) (local.get $e)))
            (local.set $cu (f64x2.div (f64x2.sub (local.get $e) (f64x2.sub (local.get $u) (v128.const f64x2 1 1))) (local.get $u)))
            (local.set $k1 (v128.and
              (i64x2.ge_s (local.get $bits) (v128.const i64x2 0x3fda827a00000000 0x3fda827a00000000))
              (i64x2.ge_s (v128.and (local.get $u) (v128.const i64x2 0x000fffff00000000 0x000fffff00000000)) (v128.const i64x2 0x0006a09e00000000 0x0006a09e00000000))))
            (local.set $f (v128.bitselect
              (f64x2.sub (v128.bitselect (f64x2.mul (local.get $u) (v128.const f64x2 0.5 0.5)) (local.get $u) (local.get $k1)) (v128.const f64x2 1 1))
              (local.get $e)
              (i64x2.ge_s (local.get $bits) (v128.const i64x2 0x3fda827a00000000 0x3fda827a00000000))))
            (local.set $hfsq (f64x2.mul (f64x2.mul (v128.const f64x2 0.5 0.5) (local.get $f)) (local.get $f)))
            (local.set $s (f64x2.div (local.get $f) (f64x2.add (v128.const f64x2 2 2) (local.get $f))))
            (local.set $z (f64x2.mul (local.get $s) (local.get $s)))
            (local.set $R (v128.const f64x2 1.479819860511658591e-01 1.479819860511658591e-01))
            (local.set $R (f64x2.add (v128.const f64x2 1.531383769920937332e-01 1.531383769920937332e-01) (f64x2.mul (local.get $z) (local.get $R))))
            (local.set $R (f64x2.add (v128.const f64x2 1.818357216161805012e-01 1.818357216161805012e-01) (f64x2.mul (local.get $z) (local.get $R))))
            (local.set $R (f64x2.add (v128.const f64x2 2.222219843214978396e-01 2.222219843214978396e-01) (f64x2.mul (local.get $z) (local.get $R))))
            (local.set $R (f64x2.add (v128.const f64x2 2.857142874366239149e-01 2.857142874366239149e-01) (f64x2.mul (local.get $z) (local.get $R))))
            (local.set $R (f64x2.add (v128.const f64x2 3.999999999940941908e-01 3.999999999940941908e-01) (f64x2.mul (local.get $z) (local.get $R))))
            (local.set $R (f64x2.add (v128.const f64x2 6.666666666666735130e-01 6.666666666666735130e-01) (f64x2.mul (local.get $z) (local.get $R))))
            (local.set $R (f64x2.mul (local.get $z) (local.get $R)))
            (local.set $p (f64x2.mul (local.get $s) (f64x2.add (local.get $hfsq) (local.get $R))))
            (local.set $l (v128.bitselect
              (f64x2.sub (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01)
                (f64x2.sub (f64x2.sub (local.get $hfsq) (f64x2.add (local.get $p) (f64x2.add (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10) (local.get $cu)))) (local.get $f)))
              (f64x2.sub (local.get $f) (f64x2.sub (local.get $hfsq) (local.get $p)))
              (local.get $k1)))
            (local.set $l (v128.bitselect
              (v128.bitselect (local.get $e) (f64x2.sub (local.get $e) (f64x2.mul (f64x2.mul (local.get $e) (local.get $e)) (v128.const f64x2 0.5 0.5)))
                (i64x2.lt_s (local.get $bits) (v128.const i64x2 0x3c90000000000000 0x3c90000000000000)))
              (local.get $l)
              (i64x2.lt_s (local.get $bits) (v128.const i64x2 0x3e20000000000000 0x3e20000000000000))))
            (local.set $yv (v128.load (i32.add (local.get $y) (local.get $o))))
            (local.set $wv (v128.load (i32.add (local.get $w) (local.get $o))))
            (local.set $lossv (f64x2.mul (local.get $wv)
              (f64x2.sub (f64x2.add (v128.and (local.get $mv) (f64x2.gt (local.get $mv) (v128.const f64x2 0 0))) (local.get $l)) (f64x2.mul (local.get $yv) (local.get $mv)))))
            (local.set $rv (f64x2.mul (local.get $wv)
              (f64x2.sub
                (f64x2.div (v128.bitselect (v128.const f64x2 1 1) (local.get $e) (f64x2.ge (local.get $mv) (v128.const f64x2 0 0))) (f64x2.add (v128.const f64x2 1 1) (local.get $e)))
                (local.get $yv))))
            (v128.store (i32.add (local.get $r) (local.get $o)) (local.get $rv))
            (local.set $loss (f64.add (f64.add (local.get $loss) (f64x2.extract_lane 0 (local.get $lossv))) (f64x2.extract_lane 1 (local.get $lossv))))
            (local.set $gb (f64.add (f64.add (local.get $gb) (f64x2.extract_lane 0 (local.get $rv))) (f64x2.extract_lane 1 (local.get $rv)))))
          (else
            (call $residualRow (local.get $m) (local.get $y) (local.get $w) (local.get $r) (local.get $i) (local.get $acc) (local.get $loss) (local.get $gb))
            (call $residualRow (local.get $m) (local.get $y) (local.get $w) (local.get $r) (i32.add (local.get $i) (i32.const 1)) (local.get $acc) (f64.load (local.get $acc)) (f64.load offset=8 (local.get $acc)))
            (local.set $loss (f64.load (local.get $acc)))
            (local.set $gb (f64.load offset=8 (local.get $acc)))))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $pairs)))
    (if (i32.lt_u (local.get $i) (local.get $rows))
      (then
        (call $residualRow (local.get $m) (local.get $y) (local.get $w) (local.get $r) (local.get $i) (local.get $acc) (local.get $loss) (local.get $gb))
        (local.set $loss (f64.load (local.get $acc)))
        (local.set $gb (f64.load offset=8 (local.get $acc)))))
    (f64.store (local.get $acc) (local.get $loss))
    (f64.store offset=8 (local.get $acc) (local.get $gb)))

  ;; One row of `residuals` with the imported Math.exp and Math.log1p; the sums after it go to acc and acc + 8.
  (func $residualRow (param $m i32) (param $y i32) (param $w i32) (param $r i32) (param $i i32) (param $acc i32) (param $loss f64) (param $gb f64)
    (local $o i32) (local $mi f64) (local $e f64) (local $yi f64) (local $wi f64) (local $ri f64)
    (local.set $o (i32.shl (local.get $i) (i32.const 3)))
    (local.set $mi (f64.load (i32.add (local.get $m) (local.get $o))))
    (local.set $yi (f64.load (i32.add (local.get $y) (local.get $o))))
    (local.set $wi (f64.load (i32.add (local.get $w) (local.get $o))))
    (local.set $e (call $exp (f64.neg (f64.abs (local.get $mi)))))
    (f64.store (local.get $acc) (f64.add (local.get $loss) (f64.mul (local.get $wi)
      (f64.sub (f64.add (select (local.get $mi) (f64.const 0) (f64.gt (local.get $mi) (f64.const 0))) (call $log1p (local.get $e))) (f64.mul (local.get $yi) (local.get $mi))))))
    (local.set $ri (f64.mul (local.get $wi)
      (f64.sub (f64.div (select (f64.const 1) (local.get $e) (f64.ge (local.get $mi) (f64.const 0))) (f64.add (f64.const 1) (local.get $e))) (local.get $yi))))
    (f64.store (i32.add (local.get $r) (local.get $o)) (local.get $ri))
    (f64.store offset=8 (local.get $acc) (f64.add (local.get $gb) (local.get $ri))))

  ;; One evaluation of the fit's objective over blocks of `block` rows (a multiple of four), each read once while in
  ;; cache: the block's margins, its residuals, its share of z^T r (linear.ts Linfit.evaluate's steps in its order).
  (func (export "evaluate") (param $z i32) (param $rows i32) (param $d i32) (param $theta i32) (param $b f64) (param $m i32)
    (param $y i32) (param $w i32) (param $r i32) (param $out i32) (param $acc i32) (param $block i32)
    (local $start i32) (local $count i32) (local $zp i32) (local $o i32)
    (local.set $start (i32.const 0))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $start) (local.get $rows)))
        (local.set $count (i32.sub (local.get $rows) (local.get $start)))
        (if (i32.gt_u (local.get $count) (local.get $block)) (then (local.set $count (local.get $block))))
        (local.set $zp (i32.add (local.get $z) (i32.mul (local.get $start) (i32.shl (local.get $d) (i32.const 3)))))
        (local.set $o (i32.shl (local.get $start) (i32.const 3)))
        (call $margins (local.get $zp) (local.get $count) (local.get $d) (local.get $theta) (local.get $b) (i32.add (local.get $m) (local.get $o)))
        (call $residuals (i32.add (local.get $m) (local.get $o)) (i32.add (local.get $y) (local.get $o)) (i32.add (local.get $w) (local.get $o))
          (i32.add (local.get $r) (local.get $o)) (local.get $count) (local.get $acc))
        (call $gradient (local.get $zp) (local.get $count) (local.get $d) (i32.add (local.get $r) (local.get $o)) (local.get $out))
        (local.set $start (i32.add (local.get $start) (local.get $count)))
        (br $blocks))))

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
