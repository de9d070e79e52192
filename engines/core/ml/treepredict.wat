;; Prediction kernel for boosted trees packed as complete binary trees (packed.ts `PackedEnsemble`, dense part): every
;; tree's output added to each row's margin, tree after tree in model order, so each row's sum is formed by the same
;; additions in the same order as the JavaScript walk (bit-identical margins). Rows are taken in blocks of 64, and
;; within a block each tree walks 8 rows in lockstep, each step without a branch: node k's children are 2k+1 and 2k+2,
;; and a row goes right when its value is not below the threshold (f64.ge) or when it is missing (NaN) and the
;; node sends missing values right.
;;
;; Memory (byte addresses chosen by the caller):
;;   x       rows x (rowBytes / 8) f64 values, row-major (the model's features only, in the caller's order)
;;   trees   per tree three i32: depth d, index of its first split in code/num, index of its first leaf in leaves
;;   code    per split an i32: (feature column * 8) | 1 when a missing value goes right
;;   num     per split its f64 threshold
;;   leaves  per tree its 2^d f64 leaf values, left to right
;;   out     rows f64 margins, added to in place
(module
  (memory (export "memory") 1)

  (func (export "predict")
    (param $x i32) (param $rows i32) (param $rowBytes i32) (param $trees i32) (param $nt i32)
    (param $code i32) (param $num i32) (param $leaves i32) (param $out i32)
    (local $start i32) (local $end i32) (local $t i32) (local $tp i32) (local $depth i32)
    (local $cb i32) (local $nb i32) (local $lb i32)
    (local.set $start (i32.const 0))
    (block $blocksDone
      (loop $blockLoop
        (br_if $blocksDone (i32.ge_u (local.get $start) (local.get $rows)))
        (local.set $end (i32.add (local.get $start) (i32.const 64)))
        (if (i32.gt_u (local.get $end) (local.get $rows)) (then (local.set $end (local.get $rows))))
        (local.set $t (i32.const 0))
        (block $treesDone
          (loop $treeLoop
            (br_if $treesDone (i32.ge_u (local.get $t) (local.get $nt)))
            (local.set $tp (i32.add (local.get $trees) (i32.mul (local.get $t) (i32.const 12))))
            (local.set $depth (i32.load (local.get $tp)))
            (local.set $cb (i32.add (local.get $code) (i32.shl (i32.load offset=4 (local.get $tp)) (i32.const 2))))
            (local.set $nb (i32.add (local.get $num) (i32.shl (i32.load offset=4 (local.get $tp)) (i32.const 3))))
            ;; leaf n (n from 2^d - 1) is at lb + n * 8
            (local.set $lb (i32.sub
              (i32.add (local.get $leaves) (i32.shl (i32.load offset=8 (local.get $tp)) (i32.const 3)))
              (i32.shl (i32.sub (i32.shl (i32.const 1) (local.get $depth)) (i32.const 1)) (i32.const 3))))
            (call $group (local.get $x) (local.get $rowBytes) (local.get $depth) (local.get $cb) (local.get $nb) (local.get $lb)
              (local.get $start) (local.get $end) (local.get $out))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $treeLoop)))
        (local.set $start (local.get $end))
        (br $blockLoop))))

  ;; One tree over rows i..end: 8 at a time, then one at a time.
  (func $group
    (param $x i32) (param $rowBytes i32) (param $depth i32) (param $cb i32) (param $nb i32) (param $lb i32)
    (param $i i32) (param $end i32) (param $out i32)
    (local $d i32) (local $o i32)
    (local $n0 i32) (local $c0 i32) (local $x0 i32) (local $v0 f64) (local $n1 i32) (local $c1 i32) (local $x1 i32) (local $v1 f64) (local $n2 i32) (local $c2 i32) (local $x2 i32) (local $v2 f64) (local $n3 i32) (local $c3 i32) (local $x3 i32) (local $v3 f64) (local $n4 i32) (local $c4 i32) (local $x4 i32) (local $v4 f64) (local $n5 i32) (local $c5 i32) (local $x5 i32) (local $v5 f64) (local $n6 i32) (local $c6 i32) (local $x6 i32) (local $v6 f64) (local $n7 i32) (local $c7 i32) (local $x7 i32) (local $v7 f64)
    (block $groupsDone
      (loop $groupLoop
        (br_if $groupsDone (i32.gt_u (i32.add (local.get $i) (i32.const 8)) (local.get $end)))
        (local.set $x0 (i32.add (local.get $x) (i32.mul (i32.add (local.get $i) (i32.const 0)) (local.get $rowBytes))))
        (local.set $n0 (i32.const 0))
        (local.set $x1 (i32.add (local.get $x) (i32.mul (i32.add (local.get $i) (i32.const 1)) (local.get $rowBytes))))
        (local.set $n1 (i32.const 0))
        (local.set $x2 (i32.add (local.get $x) (i32.mul (i32.add (local.get $i) (i32.const 2)) (local.get $rowBytes))))
        (local.set $n2 (i32.const 0))
        (local.set $x3 (i32.add (local.get $x) (i32.mul (i32.add (local.get $i) (i32.const 3)) (local.get $rowBytes))))
        (local.set $n3 (i32.const 0))
        (local.set $x4 (i32.add (local.get $x) (i32.mul (i32.add (local.get $i) (i32.const 4)) (local.get $rowBytes))))
        (local.set $n4 (i32.const 0))
        (local.set $x5 (i32.add (local.get $x) (i32.mul (i32.add (local.get $i) (i32.const 5)) (local.get $rowBytes))))
        (local.set $n5 (i32.const 0))
        (local.set $x6 (i32.add (local.get $x) (i32.mul (i32.add (local.get $i) (i32.const 6)) (local.get $rowBytes))))
        (local.set $n6 (i32.const 0))
        (local.set $x7 (i32.add (local.get $x) (i32.mul (i32.add (local.get $i) (i32.const 7)) (local.get $rowBytes))))
        (local.set $n7 (i32.const 0))
        (local.set $d (local.get $depth))
        (block $walked
          (loop $walk
            (br_if $walked (i32.eqz (local.get $d)))
          (local.set $c0 (i32.load (i32.add (local.get $cb) (i32.shl (local.get $n0) (i32.const 2)))))
          (local.set $v0 (f64.load (i32.add (local.get $x0) (i32.and (local.get $c0) (i32.const -8)))))
          (local.set $n0 (i32.add (i32.add (i32.shl (local.get $n0) (i32.const 1)) (i32.const 1))
            (i32.or (f64.ge (local.get $v0) (f64.load (i32.add (local.get $nb) (i32.shl (local.get $n0) (i32.const 3)))))
              (i32.and (f64.ne (local.get $v0) (local.get $v0)) (local.get $c0)))))
          (local.set $c1 (i32.load (i32.add (local.get $cb) (i32.shl (local.get $n1) (i32.const 2)))))
          (local.set $v1 (f64.load (i32.add (local.get $x1) (i32.and (local.get $c1) (i32.const -8)))))
          (local.set $n1 (i32.add (i32.add (i32.shl (local.get $n1) (i32.const 1)) (i32.const 1))
            (i32.or (f64.ge (local.get $v1) (f64.load (i32.add (local.get $nb) (i32.shl (local.get $n1) (i32.const 3)))))
              (i32.and (f64.ne (local.get $v1) (local.get $v1)) (local.get $c1)))))
          (local.set $c2 (i32.load (i32.add (local.get $cb) (i32.shl (local.get $n2) (i32.const 2)))))
          (local.set $v2 (f64.load (i32.add (local.get $x2) (i32.and (local.get $c2) (i32.const -8)))))
          (local.set $n2 (i32.add (i32.add (i32.shl (local.get $n2) (i32.const 1)) (i32.const 1))
            (i32.or (f64.ge (local.get $v2) (f64.load (i32.add (local.get $nb) (i32.shl (local.get $n2) (i32.const 3)))))
              (i32.and (f64.ne (local.get $v2) (local.get $v2)) (local.get $c2)))))
          (local.set $c3 (i32.load (i32.add (local.get $cb) (i32.shl (local.get $n3) (i32.const 2)))))
          (local.set $v3 (f64.load (i32.add (local.get $x3) (i32.and (local.get $c3) (i32.const -8)))))
          (local.set $n3 (i32.add (i32.add (i32.shl (local.get $n3) (i32.const 1)) (i32.const 1))
            (i32.or (f64.ge (local.get $v3) (f64.load (i32.add (local.get $nb) (i32.shl (local.get $n3) (i32.const 3)))))
              (i32.and (f64.ne (local.get $v3) (local.get $v3)) (local.get $c3)))))
          (local.set $c4 (i32.load (i32.add (local.get $cb) (i32.shl (local.get $n4) (i32.const 2)))))
          (local.set $v4 (f64.load (i32.add (local.get $x4) (i32.and (local.get $c4) (i32.const -8)))))
          (local.set $n4 (i32.add (i32.add (i32.shl (local.get $n4) (i32.const 1)) (i32.const 1))
            (i32.or (f64.ge (local.get $v4) (f64.load (i32.add (local.get $nb) (i32.shl (local.get $n4) (i32.const 3)))))
              (i32.and (f64.ne (local.get $v4) (local.get $v4)) (local.get $c4)))))
          (local.set $c5 (i32.load (i32.add (local.get $cb) (i32.shl (local.get $n5) (i32.const 2)))))
          (local.set $v5 (f64.load (i32.add (local.get $x5) (i32.and (local.get $c5) (i32.const -8)))))
          (local.set $n5 (i32.add (i32.add (i32.shl (local.get $n5) (i32.const 1)) (i32.const 1))
            (i32.or (f64.ge (local.get $v5) (f64.load (i32.add (local.get $nb) (i32.shl (local.get $n5) (i32.const 3)))))
              (i32.and (f64.ne (local.get $v5) (local.get $v5)) (local.get $c5)))))
          (local.set $c6 (i32.load (i32.add (local.get $cb) (i32.shl (local.get $n6) (i32.const 2)))))
          (local.set $v6 (f64.load (i32.add (local.get $x6) (i32.and (local.get $c6) (i32.const -8)))))
          (local.set $n6 (i32.add (i32.add (i32.shl (local.get $n6) (i32.const 1)) (i32.const 1))
            (i32.or (f64.ge (local.get $v6) (f64.load (i32.add (local.get $nb) (i32.shl (local.get $n6) (i32.const 3)))))
              (i32.and (f64.ne (local.get $v6) (local.get $v6)) (local.get $c6)))))
          (local.set $c7 (i32.load (i32.add (local.get $cb) (i32.shl (local.get $n7) (i32.const 2)))))
          (local.set $v7 (f64.load (i32.add (local.get $x7) (i32.and (local.get $c7) (i32.const -8)))))
          (local.set $n7 (i32.add (i32.add (i32.shl (local.get $n7) (i32.const 1)) (i32.const 1))
            (i32.or (f64.ge (local.get $v7) (f64.load (i32.add (local.get $nb) (i32.shl (local.get $n7) (i32.const 3)))))
              (i32.and (f64.ne (local.get $v7) (local.get $v7)) (local.get $c7)))))
            (local.set $d (i32.sub (local.get $d) (i32.const 1)))
            (br $walk)))
        (local.set $o (i32.add (local.get $out) (i32.shl (i32.add (local.get $i) (i32.const 0)) (i32.const 3))))
        (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (f64.load (i32.add (local.get $lb) (i32.shl (local.get $n0) (i32.const 3))))))
        (local.set $o (i32.add (local.get $out) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 3))))
        (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (f64.load (i32.add (local.get $lb) (i32.shl (local.get $n1) (i32.const 3))))))
        (local.set $o (i32.add (local.get $out) (i32.shl (i32.add (local.get $i) (i32.const 2)) (i32.const 3))))
        (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (f64.load (i32.add (local.get $lb) (i32.shl (local.get $n2) (i32.const 3))))))
        (local.set $o (i32.add (local.get $out) (i32.shl (i32.add (local.get $i) (i32.const 3)) (i32.const 3))))
        (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (f64.load (i32.add (local.get $lb) (i32.shl (local.get $n3) (i32.const 3))))))
        (local.set $o (i32.add (local.get $out) (i32.shl (i32.add (local.get $i) (i32.const 4)) (i32.const 3))))
        (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (f64.load (i32.add (local.get $lb) (i32.shl (local.get $n4) (i32.const 3))))))
        (local.set $o (i32.add (local.get $out) (i32.shl (i32.add (local.get $i) (i32.const 5)) (i32.const 3))))
        (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (f64.load (i32.add (local.get $lb) (i32.shl (local.get $n5) (i32.const 3))))))
        (local.set $o (i32.add (local.get $out) (i32.shl (i32.add (local.get $i) (i32.const 6)) (i32.const 3))))
        (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (f64.load (i32.add (local.get $lb) (i32.shl (local.get $n6) (i32.const 3))))))
        (local.set $o (i32.add (local.get $out) (i32.shl (i32.add (local.get $i) (i32.const 7)) (i32.const 3))))
        (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (f64.load (i32.add (local.get $lb) (i32.shl (local.get $n7) (i32.const 3))))))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $groupLoop)))
    (block $restDone
      (loop $restLoop
        (br_if $restDone (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $x0 (i32.add (local.get $x) (i32.mul (local.get $i) (local.get $rowBytes))))
        (local.set $n0 (i32.const 0))
        (local.set $d (local.get $depth))
        (block $walked1
          (loop $walk1
            (br_if $walked1 (i32.eqz (local.get $d)))
          (local.set $c0 (i32.load (i32.add (local.get $cb) (i32.shl (local.get $n0) (i32.const 2)))))
          (local.set $v0 (f64.load (i32.add (local.get $x0) (i32.and (local.get $c0) (i32.const -8)))))
          (local.set $n0 (i32.add (i32.add (i32.shl (local.get $n0) (i32.const 1)) (i32.const 1))
            (i32.or (f64.ge (local.get $v0) (f64.load (i32.add (local.get $nb) (i32.shl (local.get $n0) (i32.const 3)))))
              (i32.and (f64.ne (local.get $v0) (local.get $v0)) (local.get $c0)))))
            (local.set $d (i32.sub (local.get $d) (i32.const 1)))
            (br $walk1)))
        (local.set $o (i32.add (local.get $out) (i32.shl (i32.add (local.get $i) (i32.const 0)) (i32.const 3))))
        (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (f64.load (i32.add (local.get $lb) (i32.shl (local.get $n0) (i32.const 3))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $restLoop))))
)
