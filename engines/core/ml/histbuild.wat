;; The boosted-tree histogram kernel (hist.ts `growTree`): the gradient and hessian sums per bin of the rows of one
;; node. Each cell adds its row's (gradient, hessian) pair to its slot's pair in one f64x2 addition, rows in the
;; order given and features in the order given: per slot the same additions in the same order as the JavaScript
;; loop, so the sums are bit-identical to it.
;;
;; Memory (byte addresses chosen by the caller):
;;   hist   slots x (gradient, hessian) f64 pairs, zeroed here first
;;   slots  the binned matrix as slots (feature offset plus bin), row-major, u16 (wide = 0) or u32 (wide = 1)
;;   rows   count u32 row numbers
;;   gh     a (gradient, hessian) f64 pair per row
;;   feats  nf u32 byte offsets of the features used within a row of slots
;;   table  (feature, first slot, cut count) i32 triples of the features used, for `find`
;;
;; `subtract` and `find` are hist.ts's histogram subtraction and split finder, operation for operation.
(module
  (memory (export "memory") 1)

  ;; parent := parent - small, per f64.
  (func (export "subtract") (param $parent i32) (param $small i32) (param $bytes i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $parent) (local.get $bytes)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $parent) (local.get $end)))
        (v128.store (local.get $parent) (f64x2.sub (v128.load (local.get $parent)) (v128.load (local.get $small))))
        (local.set $parent (i32.add (local.get $parent) (i32.const 16)))
        (local.set $small (i32.add (local.get $small) (i32.const 16)))
        (br $next))))

  ;; The best split of a node's histogram (hist.ts findSplit, its mayBeat written out): returns 1 and writes
  ;; (gain f64, feature i32, bin i32, default-left i32) at out, or returns 0 when no split gains more than 1e-6.
  (func (export "find")
    (param $hist i32) (param $table i32) (param $nf i32) (param $G f64) (param $H f64) (param $lambda f64) (param $mcw f64) (param $out i32)
    (result i32)
    (local $parent f64) (local $bestGain f64) (local $found i32) (local $bestF i32) (local $bestBin i32) (local $bestLeft i32)
    (local $tp i32) (local $tend i32) (local $f i32) (local $o i32) (local $nCuts i32) (local $j i32) (local $p i32)
    (local $gm f64) (local $hm f64) (local $hasMissing i32) (local $gl f64) (local $hl f64) (local $hr f64)
    (local $bg f64) (local $bh f64) (local $gain f64) (local $gl2 f64) (local $hl2 f64)
    (local $a f64) (local $b f64) (local $gr f64) (local $lhs f64) (local $rhs f64) (local $slack f64)
    (local.set $parent (f64.div (f64.mul (local.get $G) (local.get $G)) (f64.add (local.get $H) (local.get $lambda))))
    (local.set $slack (f64.mul (f64.const 1e-9) (f64.add (f64.abs (local.get $H)) (f64.const 1))))
    (local.set $bestGain (f64.const 1e-6))
    (local.set $tp (local.get $table))
    (local.set $tend (i32.add (local.get $table) (i32.mul (local.get $nf) (i32.const 12))))
    (block $featuresDone
      (loop $featureLoop
        (br_if $featuresDone (i32.ge_u (local.get $tp) (local.get $tend)))
        (local.set $f (i32.load (local.get $tp)))
        (local.set $o (i32.add (local.get $hist) (i32.shl (i32.load offset=4 (local.get $tp)) (i32.const 4))))
        (local.set $nCuts (i32.load offset=8 (local.get $tp)))
        (local.set $tp (i32.add (local.get $tp) (i32.const 12)))
        (br_if $featureLoop (i32.lt_s (local.get $nCuts) (i32.const 0)))
        (local.set $p (i32.add (local.get $o) (i32.shl (i32.add (local.get $nCuts) (i32.const 1)) (i32.const 4))))
        (local.set $gm (f64.load (local.get $p)))
        (local.set $hm (f64.load offset=8 (local.get $p)))
        (local.set $hasMissing (f64.gt (local.get $hm) (f64.const 0)))
        ;; Only the missing values left, every observed value right.
        (if (local.get $hasMissing)
          (then
            (local.set $hr (f64.sub (local.get $H) (local.get $hm)))
            (if (i32.and (i32.and (f64.ge (local.get $hm) (local.get $mcw)) (f64.ge (local.get $hr) (local.get $mcw))) (f64.gt (local.get $hr) (f64.const 0)))
              (then
                (local.set $gr (f64.sub (local.get $G) (local.get $gm)))
                (local.set $gain (f64.sub
                  (f64.add (f64.div (f64.mul (local.get $gm) (local.get $gm)) (f64.add (local.get $hm) (local.get $lambda)))
                           (f64.div (f64.mul (local.get $gr) (local.get $gr)) (f64.add (local.get $hr) (local.get $lambda))))
                  (local.get $parent)))
                (if (f64.gt (local.get $gain) (local.get $bestGain))
                  (then
                    (local.set $bestGain (local.get $gain))
                    (local.set $found (i32.const 1))
                    (local.set $bestF (local.get $f))
                    (local.set $bestBin (i32.const -1))
                    (local.set $bestLeft (i32.const 1))))))))
        (local.set $gl (f64.const 0))
        (local.set $hl (f64.const 0))
        (local.set $j (i32.const 0))
        (local.set $p (local.get $o))
        (block $binsDone
          (loop $binLoop
            (br_if $binsDone (i32.ge_s (local.get $j) (local.get $nCuts)))
            (local.set $bg (f64.load (local.get $p)))
            (local.set $bh (f64.load offset=8 (local.get $p)))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            ;; An empty bin repeats the previous candidate (j here is one past the bin).
            (br_if $binLoop (i32.and (i32.and (f64.eq (local.get $bh) (f64.const 0)) (f64.eq (local.get $bg) (f64.const 0)))
              (i32.gt_s (local.get $j) (i32.const 1))))
            (local.set $gl (f64.add (local.get $gl) (local.get $bg)))
            (local.set $hl (f64.add (local.get $hl) (local.get $bh)))
            ;; Missing values right, then (when there are any) left.
            (local.set $hr (f64.sub (local.get $H) (local.get $hl)))
            ;; hist.ts findSplit's early end: no later candidate of this feature can leave enough on the right.
            (br_if $binsDone (i32.or
              (f64.lt (f64.add (local.get $hr) (local.get $slack)) (local.get $mcw))
              (f64.le (f64.add (local.get $hr) (local.get $slack)) (f64.const 0))))
            (if (i32.and (i32.and (f64.ge (local.get $hl) (local.get $mcw)) (f64.ge (local.get $hr) (local.get $mcw))) (i32.and (f64.gt (local.get $hl) (f64.const 0)) (f64.gt (local.get $hr) (f64.const 0))))
              (then
                ;; hist.ts mayBeat, then the exact gain
                (local.set $a (f64.add (local.get $hl) (local.get $lambda)))
                (local.set $b (f64.add (local.get $hr) (local.get $lambda)))
                (local.set $gr (f64.sub (local.get $G) (local.get $gl)))
                (local.set $lhs (f64.add
                  (f64.mul (f64.mul (local.get $gl) (local.get $gl)) (local.get $b))
                  (f64.mul (f64.mul (local.get $gr) (local.get $gr)) (local.get $a))))
                (local.set $rhs (f64.mul (f64.mul (f64.add (local.get $parent) (local.get $bestGain)) (local.get $a)) (local.get $b)))
                (if (i32.or
                      (i32.eqz (i32.and (f64.gt (local.get $a) (f64.const 0)) (f64.gt (local.get $b) (f64.const 0))))
                      (i32.eqz (f64.lt (local.get $lhs)
                        (f64.sub (local.get $rhs) (f64.mul (f64.const 1e-12) (f64.add (local.get $lhs) (f64.abs (local.get $rhs))))))))
                  (then
                    (local.set $gain (f64.sub
                      (f64.add (f64.div (f64.mul (local.get $gl) (local.get $gl)) (local.get $a))
                               (f64.div (f64.mul (local.get $gr) (local.get $gr)) (local.get $b)))
                      (local.get $parent)))
                    (if (f64.gt (local.get $gain) (local.get $bestGain))
                      (then
                        (local.set $bestGain (local.get $gain))
                        (local.set $found (i32.const 1))
                        (local.set $bestF (local.get $f))
                        (local.set $bestBin (i32.sub (local.get $j) (i32.const 1)))
                        (local.set $bestLeft (i32.const 0))))))))
            (if (local.get $hasMissing)
              (then
                (local.set $gl2 (f64.add (local.get $gl) (local.get $gm)))
                (local.set $hl2 (f64.add (local.get $hl) (local.get $hm)))
                (local.set $hr (f64.sub (local.get $H) (local.get $hl2)))
                (if (i32.and (i32.and (f64.ge (local.get $hl2) (local.get $mcw)) (f64.ge (local.get $hr) (local.get $mcw))) (f64.gt (local.get $hr) (f64.const 0)))
                  (then
                    ;; hist.ts mayBeat, then the exact gain
                    (local.set $a (f64.add (local.get $hl2) (local.get $lambda)))
                    (local.set $b (f64.add (local.get $hr) (local.get $lambda)))
                    (local.set $gr (f64.sub (local.get $G) (local.get $gl2)))
                    (local.set $lhs (f64.add
                      (f64.mul (f64.mul (local.get $gl2) (local.get $gl2)) (local.get $b))
                      (f64.mul (f64.mul (local.get $gr) (local.get $gr)) (local.get $a))))
                    (local.set $rhs (f64.mul (f64.mul (f64.add (local.get $parent) (local.get $bestGain)) (local.get $a)) (local.get $b)))
                    (if (i32.or
                          (i32.eqz (i32.and (f64.gt (local.get $a) (f64.const 0)) (f64.gt (local.get $b) (f64.const 0))))
                          (i32.eqz (f64.lt (local.get $lhs)
                            (f64.sub (local.get $rhs) (f64.mul (f64.const 1e-12) (f64.add (local.get $lhs) (f64.abs (local.get $rhs))))))))
                      (then
                        (local.set $gain (f64.sub
                          (f64.add (f64.div (f64.mul (local.get $gl2) (local.get $gl2)) (local.get $a))
                                   (f64.div (f64.mul (local.get $gr) (local.get $gr)) (local.get $b)))
                          (local.get $parent)))
                        (if (f64.gt (local.get $gain) (local.get $bestGain))
                          (then
                            (local.set $bestGain (local.get $gain))
                            (local.set $found (i32.const 1))
                            (local.set $bestF (local.get $f))
                            (local.set $bestBin (i32.sub (local.get $j) (i32.const 1)))
                            (local.set $bestLeft (i32.const 1))))))))))
            (br $binLoop)))
        (br $featureLoop)))
    (f64.store (local.get $out) (local.get $bestGain))
    (i32.store offset=8 (local.get $out) (local.get $bestF))
    (i32.store offset=12 (local.get $out) (local.get $bestBin))
    (i32.store offset=16 (local.get $out) (local.get $bestLeft))
    (local.get $found))

;; Stable partition of the row numbers at [rows, rows + 4 count) by a split (hist.ts partition): a row goes left when
  ;; its slot of the split feature is the missing slot and defaultLeft is set, or is at most lastLeft otherwise. Left
  ;; rows stay in front in their order, right rows follow in theirs (through scratch). Returns the left count and
  ;; writes the left (gradient, hessian) sums at out and the right ones at out + 16, each summed in row order.
  ;; Without a branch on the side (which the processor cannot predict): each row number is written to both places
  ;; and only the side's end moves on (the left end never passes the row being read), and each side adds its row's
  ;; pair or +0. Adding +0 leaves a sum unchanged: a sum that starts at +0 is never -0, so the sums are the same
  ;; additions, bit for bit, as adding only the side's rows.
  (func (export "partition")
    (param $rows i32) (param $count i32) (param $slots i32) (param $wide i32) (param $rowBytes i32) (param $fo i32)
    (param $lastLeft i32) (param $missing i32) (param $defaultLeft i32) (param $gh i32) (param $scratch i32) (param $out i32)
    (result i32)
    (local $k i32) (local $end i32) (local $w i32) (local $s i32) (local $r i32) (local $slot i32) (local $left i32)
    (local $sl v128) (local $sr v128) (local $pair v128) (local $mask v128)
    (local.set $end (i32.add (local.get $rows) (i32.shl (local.get $count) (i32.const 2))))
    (local.set $k (local.get $rows))
    (local.set $w (local.get $rows))
    (local.set $s (local.get $scratch))
    (local.set $sl (v128.const f64x2 0 0))
    (local.set $sr (v128.const f64x2 0 0))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $end)))
        (local.set $r (i32.load (local.get $k)))
        (local.set $slot
          (if (result i32) (local.get $wide)
            (then (i32.load (i32.add (i32.add (local.get $slots) (i32.mul (local.get $r) (local.get $rowBytes))) (local.get $fo))))
            (else (i32.load16_u (i32.add (i32.add (local.get $slots) (i32.mul (local.get $r) (local.get $rowBytes))) (local.get $fo))))))
        (local.set $left
          (select (local.get $defaultLeft) (i32.le_s (local.get $slot) (local.get $lastLeft)) (i32.eq (local.get $slot) (local.get $missing))))
        ;; all ones on the left, all zeros on the right
        (local.set $mask (i64x2.splat (i64.sub (i64.const 0) (i64.extend_i32_u (local.get $left)))))
        (local.set $pair (v128.load (i32.add (local.get $gh) (i32.shl (local.get $r) (i32.const 4)))))
        (local.set $sl (f64x2.add (local.get $sl) (v128.and (local.get $pair) (local.get $mask))))
        (local.set $sr (f64x2.add (local.get $sr) (v128.andnot (local.get $pair) (local.get $mask))))
        (i32.store (local.get $w) (local.get $r))
        (i32.store (local.get $s) (local.get $r))
        (local.set $w (i32.add (local.get $w) (i32.shl (local.get $left) (i32.const 2))))
        (local.set $s (i32.add (local.get $s) (i32.shl (i32.xor (local.get $left) (i32.const 1)) (i32.const 2))))
        (local.set $k (i32.add (local.get $k) (i32.const 4)))
        (br $next)))
    (memory.copy (local.get $w) (local.get $scratch) (i32.sub (local.get $s) (local.get $scratch)))
    (v128.store (local.get $out) (local.get $sl))
    (v128.store offset=16 (local.get $out) (local.get $sr))
    (i32.shr_u (i32.sub (local.get $w) (local.get $rows)) (i32.const 2)))

  (func (export "build")
    (param $hist i32) (param $histBytes i32) (param $slots i32) (param $wide i32) (param $rowBytes i32)
    (param $rows i32) (param $count i32) (param $gh i32) (param $feats i32) (param $nf i32)
    (local $k i32) (local $end i32) (local $base i32) (local $fp i32) (local $fend i32) (local $cell i32)
    (local $pair v128)
    (memory.fill (local.get $hist) (i32.const 0) (local.get $histBytes))
    (local.set $end (i32.add (local.get $rows) (i32.shl (local.get $count) (i32.const 2))))
    (local.set $fend (i32.add (local.get $feats) (i32.shl (local.get $nf) (i32.const 2))))
    (local.set $k (local.get $rows))
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $k) (local.get $end)))
        (local.set $pair (v128.load (i32.add (local.get $gh) (i32.shl (i32.load (local.get $k)) (i32.const 4)))))
        (local.set $base (i32.add (local.get $slots) (i32.mul (i32.load (local.get $k)) (local.get $rowBytes))))
        (local.set $fp (local.get $feats))
        (if (local.get $wide)
          (then
            (block $wideDone
              (loop $wideLoop
                (br_if $wideDone (i32.ge_u (local.get $fp) (local.get $fend)))
                (local.set $cell (i32.add (local.get $hist)
                  (i32.shl (i32.load (i32.add (local.get $base) (i32.load (local.get $fp)))) (i32.const 4))))
                (v128.store (local.get $cell) (f64x2.add (v128.load (local.get $cell)) (local.get $pair)))
                (local.set $fp (i32.add (local.get $fp) (i32.const 4)))
                (br $wideLoop))))
          (else
            (block $narrowDone
              (loop $narrowLoop
                (br_if $narrowDone (i32.ge_u (local.get $fp) (local.get $fend)))
                (local.set $cell (i32.add (local.get $hist)
                  (i32.shl (i32.load16_u (i32.add (local.get $base) (i32.load (local.get $fp)))) (i32.const 4))))
                (v128.store (local.get $cell) (f64x2.add (v128.load (local.get $cell)) (local.get $pair)))
                (local.set $fp (i32.add (local.get $fp) (i32.const 4)))
                (br $narrowLoop)))))
        (local.set $k (i32.add (local.get $k) (i32.const 4)))
        (br $rowLoop))))
  ;; `build` over every cell of each row (the features used are all the columns, in order): the slots of a row read
  ;; one after the other, with no feature list, two cells per step. Each slot belongs to one feature, so each slot
  ;; still takes its rows' pairs in row order: the same sums as `build`.
  (func (export "buildAll")
    (param $hist i32) (param $histBytes i32) (param $slots i32) (param $wide i32) (param $rowBytes i32)
    (param $rows i32) (param $count i32) (param $gh i32)
    (local $k i32) (local $end i32) (local $p i32) (local $pend i32) (local $cell i32) (local $cell2 i32) (local $r i32)
    (local $pair v128)
    (memory.fill (local.get $hist) (i32.const 0) (local.get $histBytes))
    (local.set $end (i32.add (local.get $rows) (i32.shl (local.get $count) (i32.const 2))))
    (local.set $k (local.get $rows))
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $k) (local.get $end)))
        (local.set $r (i32.load (local.get $k)))
        (local.set $pair (v128.load (i32.add (local.get $gh) (i32.shl (local.get $r) (i32.const 4)))))
        (local.set $p (i32.add (local.get $slots) (i32.mul (local.get $r) (local.get $rowBytes))))
        (local.set $pend (i32.add (local.get $p) (local.get $rowBytes)))
        (if (local.get $wide)
          (then
            (block $wideDone
              (loop $wideLoop
                (br_if $wideDone (i32.gt_u (i32.add (local.get $p) (i32.const 8)) (local.get $pend)))
                (local.set $cell (i32.add (local.get $hist) (i32.shl (i32.load (local.get $p)) (i32.const 4))))
                (local.set $cell2 (i32.add (local.get $hist) (i32.shl (i32.load offset=4 (local.get $p)) (i32.const 4))))
                (v128.store (local.get $cell) (f64x2.add (v128.load (local.get $cell)) (local.get $pair)))
                (v128.store (local.get $cell2) (f64x2.add (v128.load (local.get $cell2)) (local.get $pair)))
                (local.set $p (i32.add (local.get $p) (i32.const 8)))
                (br $wideLoop)))
            (if (i32.lt_u (local.get $p) (local.get $pend))
              (then
                (local.set $cell (i32.add (local.get $hist) (i32.shl (i32.load (local.get $p)) (i32.const 4))))
                (v128.store (local.get $cell) (f64x2.add (v128.load (local.get $cell)) (local.get $pair))))))
          (else
            (block $narrowDone
              (loop $narrowLoop
                (br_if $narrowDone (i32.gt_u (i32.add (local.get $p) (i32.const 4)) (local.get $pend)))
                (local.set $cell (i32.add (local.get $hist) (i32.shl (i32.load16_u (local.get $p)) (i32.const 4))))
                (local.set $cell2 (i32.add (local.get $hist) (i32.shl (i32.load16_u offset=2 (local.get $p)) (i32.const 4))))
                (v128.store (local.get $cell) (f64x2.add (v128.load (local.get $cell)) (local.get $pair)))
                (v128.store (local.get $cell2) (f64x2.add (v128.load (local.get $cell2)) (local.get $pair)))
                (local.set $p (i32.add (local.get $p) (i32.const 4)))
                (br $narrowLoop)))
            (if (i32.lt_u (local.get $p) (local.get $pend))
              (then
                (local.set $cell (i32.add (local.get $hist) (i32.shl (i32.load16_u (local.get $p)) (i32.const 4))))
                (v128.store (local.get $cell) (f64x2.add (v128.load (local.get $cell)) (local.get $pair)))))))
        (local.set $k (i32.add (local.get $k) (i32.const 4)))
        (br $rowLoop))))

  ;; binMatrix's bins of one feature f over a block of rows: x holds rows x cols f64 values (row-major), cuts the
  ;; feature's n ascending cuts; writes at out (rows x cols u16, row-major) the number of cuts <= v (binOf), or
  ;; n + 1 for a missing value. A branch-free binary search (select), as the cuts are the same for every row.
  (func (export "bin")
    (param $x i32) (param $rows i32) (param $cols i32) (param $f i32) (param $cuts i32) (param $n i32) (param $out i32)
    (local $r i32) (local $cell i32) (local $v f64) (local $base i32) (local $len i32) (local $half i32) (local $b i32)
    (local.set $r (i32.const 0))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $cell (i32.add (i32.mul (local.get $r) (local.get $cols)) (local.get $f)))
        (local.set $v (f64.load (i32.add (local.get $x) (i32.shl (local.get $cell) (i32.const 3)))))
        (if (f64.ne (local.get $v) (local.get $v))
          (then (local.set $b (i32.add (local.get $n) (i32.const 1))))
          (else
            (if (i32.eqz (local.get $n))
              (then (local.set $b (i32.const 0)))
              (else
                (local.set $base (i32.const 0))
                (local.set $len (local.get $n))
                (block $found
                  (loop $search
                    (br_if $found (i32.le_u (local.get $len) (i32.const 1)))
                    (local.set $half (i32.shr_u (local.get $len) (i32.const 1)))
                    (local.set $base
                      (select
                        (i32.add (local.get $base) (local.get $half))
                        (local.get $base)
                        (f64.le (f64.load (i32.add (local.get $cuts) (i32.shl (i32.add (local.get $base) (local.get $half)) (i32.const 3)))) (local.get $v))))
                    (local.set $len (i32.sub (local.get $len) (local.get $half)))
                    (br $search)))
                (local.set $b (i32.add (local.get $base)
                  (f64.le (f64.load (i32.add (local.get $cuts) (i32.shl (local.get $base) (i32.const 3)))) (local.get $v))))))))
        (i32.store16 (i32.add (local.get $out) (i32.shl (local.get $cell) (i32.const 1))) (local.get $b))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $next))))

  ;; Sorts the count f64 values at keys ascending in place, in the order of Float64Array.prototype.sort (-0 before
  ;; +0; the caller leaves out NaN): an LSD radix sort, eight bits per pass, on order-preserving 64-bit keys (a
  ;; negative value with every bit flipped, others with the sign bit flipped), a pass skipped when every key has the
  ;; same byte there. tmp: count * 8 bytes of scratch; counts: 8 * 256 i32 of scratch.
  (func (export "sort") (param $keys i32) (param $count i32) (param $tmp i32) (param $counts i32)
    (local $k i32) (local $end i32) (local $bits i64) (local $pass i32) (local $shift i64) (local $c i32)
    (local $d i32) (local $sum i32) (local $t i32) (local $src i32) (local $dst i32) (local $swap i32) (local $at i32)
    (if (i32.lt_u (local.get $count) (i32.const 2)) (then (return)))
    (memory.fill (local.get $counts) (i32.const 0) (i32.const 8192))
    (local.set $end (i32.add (local.get $keys) (i32.shl (local.get $count) (i32.const 3))))
    ;; To keys, counting every byte.
    (local.set $k (local.get $keys))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $end)))
        (local.set $bits (i64.load (local.get $k)))
        (local.set $bits
          (if (result i64) (i64.lt_s (local.get $bits) (i64.const 0))
            (then (i64.xor (local.get $bits) (i64.const -1)))
            (else (i64.xor (local.get $bits) (i64.const 0x8000000000000000)))))
        (i64.store (local.get $k) (local.get $bits))
        (local.set $pass (i32.const 0))
        (block $bytesDone
          (loop $byteLoop
            (br_if $bytesDone (i32.ge_u (local.get $pass) (i32.const 8)))
            (local.set $at (i32.add (local.get $counts)
              (i32.shl (i32.add (i32.shl (local.get $pass) (i32.const 8))
                (i32.and (i32.wrap_i64 (i64.shr_u (local.get $bits) (i64.extend_i32_u (i32.shl (local.get $pass) (i32.const 3))))) (i32.const 255)))
                (i32.const 2))))
            (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))
            (local.set $pass (i32.add (local.get $pass) (i32.const 1)))
            (br $byteLoop)))
        (local.set $k (i32.add (local.get $k) (i32.const 8)))
        (br $next)))
    (local.set $src (local.get $keys))
    (local.set $dst (local.get $tmp))
    (local.set $pass (i32.const 0))
    (block $passesDone
      (loop $passLoop
        (br_if $passesDone (i32.ge_u (local.get $pass) (i32.const 8)))
        (local.set $shift (i64.extend_i32_u (i32.shl (local.get $pass) (i32.const 3))))
        (local.set $c (i32.add (local.get $counts) (i32.shl (local.get $pass) (i32.const 10))))
        (local.set $d (i32.and (i32.wrap_i64 (i64.shr_u (i64.load (local.get $src)) (local.get $shift))) (i32.const 255)))
        (if (i32.ne (i32.load (i32.add (local.get $c) (i32.shl (local.get $d) (i32.const 2)))) (local.get $count))
          (then
            ;; Offsets, then the stable scatter.
            (local.set $sum (i32.const 0))
            (local.set $d (i32.const 0))
            (block $prefixDone
              (loop $prefix
                (br_if $prefixDone (i32.ge_u (local.get $d) (i32.const 1024)))
                (local.set $t (i32.load (i32.add (local.get $c) (local.get $d))))
                (i32.store (i32.add (local.get $c) (local.get $d)) (local.get $sum))
                (local.set $sum (i32.add (local.get $sum) (local.get $t)))
                (local.set $d (i32.add (local.get $d) (i32.const 4)))
                (br $prefix)))
            (local.set $end (i32.add (local.get $src) (i32.shl (local.get $count) (i32.const 3))))
            (local.set $k (local.get $src))
            (block $scatterDone
              (loop $scatter
                (br_if $scatterDone (i32.ge_u (local.get $k) (local.get $end)))
                (local.set $bits (i64.load (local.get $k)))
                (local.set $at (i32.add (local.get $c)
                  (i32.shl (i32.and (i32.wrap_i64 (i64.shr_u (local.get $bits) (local.get $shift))) (i32.const 255)) (i32.const 2))))
                (local.set $t (i32.load (local.get $at)))
                (i32.store (local.get $at) (i32.add (local.get $t) (i32.const 1)))
                (i64.store (i32.add (local.get $dst) (i32.shl (local.get $t) (i32.const 3))) (local.get $bits))
                (local.set $k (i32.add (local.get $k) (i32.const 8)))
                (br $scatter)))
            (local.set $swap (local.get $src))
            (local.set $src (local.get $dst))
            (local.set $dst (local.get $swap))))
        (local.set $pass (i32.add (local.get $pass) (i32.const 1)))
        (br $passLoop)))
    ;; Back to values, into keys.
    (local.set $end (i32.add (local.get $src) (i32.shl (local.get $count) (i32.const 3))))
    (local.set $k (local.get $src))
    (local.set $at (local.get $keys))
    (block $backDone
      (loop $back
        (br_if $backDone (i32.ge_u (local.get $k) (local.get $end)))
        (local.set $bits (i64.load (local.get $k)))
        (i64.store (local.get $at)
          (if (result i64) (i64.lt_s (local.get $bits) (i64.const 0))
            (then (i64.xor (local.get $bits) (i64.const 0x8000000000000000)))
            (else (i64.xor (local.get $bits) (i64.const -1)))))
        (local.set $k (i32.add (local.get $k) (i32.const 8)))
        (local.set $at (i32.add (local.get $at) (i32.const 8)))
        (br $back))))
)
