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
(module
  (memory (export "memory") 1)

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
        (br $rowLoop)))))
