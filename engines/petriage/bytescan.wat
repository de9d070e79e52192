;; petriage's pass over a file's bytes (strings.ts): the byte counts behind the entropies, and the runs behind the
;; ASCII and UTF-16LE strings. Built into bytescan.wasm.ts by `npm run build:wasm` (tools/wasm/build.ts).
;;
;; Memory, laid out by the caller past the first 42 KiB:
;;   [0, 1024)     the counts of the byte values in the whole input, 256 x i32 (count's)
;;   2048, 2052, 2056: runs found (ASCII, UTF-16LE at even offsets, at odd offsets), i32 each; every run is
;;                 counted, the first `limit` of each kind are written as (start, length) pairs of i32
;;   2336          the sum of the input's whole 32-bit words, i64 (count's)
;;   [4096, 36864) c * log2(c) for c below 4096, f64 each, written by the caller (entropy.ts's table, so that the
;;                 sums are those of the JavaScript code to the last bit)
;;   [36864, 40960) count's four tables of counts: a byte at offset i is counted in table i % 4 (increments of one
;;                 table wait for the one before to be stored; four tables keep four of them under way)
;;   [40960, 43008) c * log2(c) of the counts past the table in the range being summed, f64 by byte value ($bigTerms)
;;   rich's results at the address it is given (three i32)
(module
  ;; Math.log2, for counts past the table.
  (import "env" "log2" (func $log2 (param f64) (result f64)))
  (memory (export "memory") 1)

  ;; The sum over byte values, ascending, of c * log2(c), c being the value's count between two snapshots of the
  ;; counts (at `to` and at `from`, 1024 bytes each: the counts before the range's end and before its start): the
  ;; sum a plain loop over the 256 values would make, to the last bit, with the values that count 0 left out (adding
  ;; their 0 leaves a sum as it is). Sixty-four values at a time: the ones whose count is not 0 are found as a bit mask
  ;; (built sixteen at a time), one loop over its set bits.
  (func $sumCLogC (param $to i32) (param $from i32) (result f64)
    (local $v i32) (local $g i32) (local $m i64) (local $at i32) (local $c i32) (local $s f64)
    (loop $chunks
      ;; The mask of 64 values, 16 at a time.
      (local.set $m (i64.const 0))
      (local.set $g (i32.const 0))
      (loop $groups
        (local.set $at (i32.add (local.get $v) (i32.shl (local.get $g) (i32.const 6))))
        (local.set $m (i64.or (local.get $m) (i64.shl (i64.extend_i32_u (i32.or
          (i32.or
            (i32x4.bitmask (i32x4.ne (v128.load (i32.add (local.get $to) (local.get $at))) (v128.load (i32.add (local.get $from) (local.get $at)))))
            (i32.shl (i32x4.bitmask (i32x4.ne (v128.load offset=16 (i32.add (local.get $to) (local.get $at))) (v128.load offset=16 (i32.add (local.get $from) (local.get $at))))) (i32.const 4)))
          (i32.or
            (i32.shl (i32x4.bitmask (i32x4.ne (v128.load offset=32 (i32.add (local.get $to) (local.get $at))) (v128.load offset=32 (i32.add (local.get $from) (local.get $at))))) (i32.const 8))
            (i32.shl (i32x4.bitmask (i32x4.ne (v128.load offset=48 (i32.add (local.get $to) (local.get $at))) (v128.load offset=48 (i32.add (local.get $from) (local.get $at))))) (i32.const 12)))))
          (i64.extend_i32_u (i32.shl (local.get $g) (i32.const 4))))))
        (local.set $g (i32.add (local.get $g) (i32.const 1)))
        (br_if $groups (i32.lt_u (local.get $g) (i32.const 4))))
      (block $valuesDone
        (loop $values
          (br_if $valuesDone (i64.eqz (local.get $m)))
          (local.set $at (i32.add (local.get $v) (i32.shl (i32.wrap_i64 (i64.ctz (local.get $m))) (i32.const 2))))
          (local.set $c (i32.sub (i32.load (i32.add (local.get $to) (local.get $at))) (i32.load (i32.add (local.get $from) (local.get $at)))))
          (local.set $s (f64.add (local.get $s)
            (if (result f64) (i32.lt_u (local.get $c) (i32.const 4096))
              (then (f64.load offset=4096 (i32.shl (local.get $c) (i32.const 3))))
              (else (f64.load offset=40960 (i32.shl (local.get $at) (i32.const 1)))))))
          (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
          (br $values)))
      (local.set $v (i32.add (local.get $v) (i32.const 256)))
      (br_if $chunks (i32.lt_u (local.get $v) (i32.const 1024))))
    (local.get $s))

;; For each byte value whose count between the snapshots at `to` and `from` is past the table (4,096 or more),
  ;; c * log2(c) with Math.log2, at 40960 + 8 * value, where $sumCLogC reads it: the call stays out of that loop
  ;; (a call in it made V8 keep the running sum in memory, about three times the time a value).
  (func $bigTerms (param $to i32) (param $from i32)
    (local $at i32) (local $j i32) (local $c i32)
    (loop $groups
      (if (v128.any_true (i32x4.ge_u
            (i32x4.sub (v128.load (i32.add (local.get $to) (local.get $at))) (v128.load (i32.add (local.get $from) (local.get $at))))
            (v128.const i32x4 4096 4096 4096 4096)))
        (then
          (local.set $j (local.get $at))
          (loop $lanes
            (local.set $c (i32.sub (i32.load (i32.add (local.get $to) (local.get $j))) (i32.load (i32.add (local.get $from) (local.get $j)))))
            (if (i32.ge_u (local.get $c) (i32.const 4096))
              (then (f64.store offset=40960 (i32.shl (local.get $j) (i32.const 1))
                (f64.mul (f64.convert_i32_u (local.get $c)) (call $log2 (f64.convert_i32_u (local.get $c)))))))
            (local.set $j (i32.add (local.get $j) (i32.const 4)))
            (br_if $lanes (i32.lt_u (local.get $j) (i32.add (local.get $at) (i32.const 16)))))))
      (local.set $at (i32.add (local.get $at) (i32.const 16)))
      (br_if $groups (i32.lt_u (local.get $at) (i32.const 1024)))))

  ;; Writes the counts so far (the four tables added, the zero bytes of zero words added to the count of 0) as 256 i32
  ;; at `out`.
  (func $snapshot (param $out i32) (param $zeros i32)
    (local $at i32)
    (loop $each
      (v128.store (i32.add (local.get $out) (local.get $at))
        (i32x4.add
          (i32x4.add (v128.load offset=36864 (local.get $at)) (v128.load offset=37888 (local.get $at)))
          (i32x4.add (v128.load offset=38912 (local.get $at)) (v128.load offset=39936 (local.get $at)))))
      (local.set $at (i32.add (local.get $at) (i32.const 16)))
      (br_if $each (i32.lt_u (local.get $at) (i32.const 1024))))
    (i32.store (local.get $out) (i32.add (i32.load (local.get $out)) (local.get $zeros))))

  ;; One byte outside whole words of a stretch: counted in the first table, and added to `sum` (returned) at its
  ;; place in its word when that word is whole (below `words`).
  (func $countByte (param $data i32) (param $i i32) (param $words i32) (param $sum i64) (result i64)
    (local $b i32) (local $at i32)
    (local.set $b (i32.load8_u (i32.add (local.get $data) (local.get $i))))
    (local.set $at (i32.shl (local.get $b) (i32.const 2)))
    (i32.store offset=36864 (local.get $at) (i32.add (i32.load offset=36864 (local.get $at)) (i32.const 1)))
    (if (result i64) (i32.lt_u (local.get $i) (local.get $words))
      (then (i64.add (local.get $sum) (i64.shl (i64.extend_i32_u (local.get $b)) (i64.extend_i32_u (i32.shl (i32.and (local.get $i) (i32.const 3)) (i32.const 3))))))
      (else (local.get $sum))))

  ;; One whole word of a stretch not in a whole 8-byte block: its four bytes in the four tables, added to `sum`
  ;; (returned).
  (func $countWord (param $w i32) (param $sum i64) (result i64)
    (local $at i32)
    (local.set $at (i32.and (i32.shl (local.get $w) (i32.const 2)) (i32.const 0x3fc)))
    (i32.store offset=36864 (local.get $at) (i32.add (i32.load offset=36864 (local.get $at)) (i32.const 1)))
    (local.set $at (i32.and (i32.shr_u (local.get $w) (i32.const 6)) (i32.const 0x3fc)))
    (i32.store offset=37888 (local.get $at) (i32.add (i32.load offset=37888 (local.get $at)) (i32.const 1)))
    (local.set $at (i32.and (i32.shr_u (local.get $w) (i32.const 14)) (i32.const 0x3fc)))
    (i32.store offset=38912 (local.get $at) (i32.add (i32.load offset=38912 (local.get $at)) (i32.const 1)))
    (local.set $at (i32.and (i32.shr_u (local.get $w) (i32.const 22)) (i32.const 0x3fc)))
    (i32.store offset=39936 (local.get $at) (i32.add (i32.load offset=39936 (local.get $at)) (i32.const 1)))
    (i64.add (local.get $sum) (i64.extend_i32_u (local.get $w))))

  ;; count(data, n, cuts, cutCount, cutOut, ranges, rangeCount, sums): counts the n bytes at `data` (8-aligned) into
  ;; the four tables; at each of the cutCount ascending offsets at `cuts` (i32, 0 to n) the counts so far are written
  ;; to cutOut + 1024 * k ($snapshot), and at the end those of the whole input to 0. Then, for each of the
  ;; rangeCount pairs of cut numbers (from, to) at `ranges` (i32), writes the sum over byte values of c log2 c, c the
  ;; count between them ($sumCLogC), at `sums` (f64). The plain sum of the input's whole little-endian 32-bit words
  ;; goes to 2336 (i64), for the PE checksum.
  (func (export "count") (param $data i32) (param $n i32) (param $cuts i32) (param $cutCount i32) (param $cutOut i32)
    (param $ranges i32) (param $rangeCount i32) (param $sums i32)
    (local $k i32) (local $from i32) (local $to i32) (local $i i32) (local $end i32) (local $w i32) (local $zeros i32) (local $at i32)
    (local $words i32) (local $sum i64) (local $q i64)
    (memory.fill (i32.const 36864) (i32.const 0) (i32.const 4096))
    ;; The bytes of whole words (the file's last n % 4 bytes are not in one).
    (local.set $words (i32.and (local.get $n) (i32.const -4)))
    (block $done
      (loop $stretches
        (local.set $to
          (if (result i32) (i32.lt_u (local.get $k) (local.get $cutCount))
            (then (i32.load (i32.add (local.get $cuts) (i32.shl (local.get $k) (i32.const 2)))))
            (else (local.get $n))))
        (local.set $i (local.get $from))
        ;; The bytes before the first whole word, one at a time.
        (block $headDone
          (loop $head
            (br_if $headDone (i32.ge_u (local.get $i) (local.get $to)))
            (br_if $headDone (i32.eqz (i32.and (local.get $i) (i32.const 3))))
            (call $countByte (local.get $data) (local.get $i) (local.get $words) (local.get $sum))
            (local.set $sum)
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $head)))
        ;; A whole word up to the first 8-byte block.
        (local.set $end (i32.and (local.get $to) (i32.const -4)))
        (if (i32.and (i32.lt_u (local.get $i) (local.get $end)) (i32.ne (i32.and (local.get $i) (i32.const 4)) (i32.const 0)))
          (then
            (local.set $sum (call $countWord (i32.load (i32.add (local.get $data) (local.get $i))) (local.get $sum)))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))))
        ;; Whole 8-byte blocks: a zero block counts eight zeros (not in a table); any other, its bytes in the four
        ;; tables, and its two words to the sum.
        (local.set $w (i32.and (local.get $to) (i32.const -8)))
        (block $blocksDone
          (loop $blocks
            (br_if $blocksDone (i32.ge_u (local.get $i) (local.get $w)))
            (local.set $q (i64.load (i32.add (local.get $data) (local.get $i))))
            (if (i64.eqz (local.get $q))
              (then (local.set $zeros (i32.add (local.get $zeros) (i32.const 8))))
              (else
                (local.set $sum (i64.add (local.get $sum)
                  (i64.add (i64.and (local.get $q) (i64.const 0xffffffff)) (i64.shr_u (local.get $q) (i64.const 32)))))
                (local.set $at (i32.and (i32.shl (i32.wrap_i64 (local.get $q)) (i32.const 2)) (i32.const 0x3fc)))
                (i32.store offset=36864 (local.get $at) (i32.add (i32.load offset=36864 (local.get $at)) (i32.const 1)))
                (local.set $at (i32.and (i32.wrap_i64 (i64.shr_u (local.get $q) (i64.const 6))) (i32.const 0x3fc)))
                (i32.store offset=37888 (local.get $at) (i32.add (i32.load offset=37888 (local.get $at)) (i32.const 1)))
                (local.set $at (i32.and (i32.wrap_i64 (i64.shr_u (local.get $q) (i64.const 14))) (i32.const 0x3fc)))
                (i32.store offset=38912 (local.get $at) (i32.add (i32.load offset=38912 (local.get $at)) (i32.const 1)))
                (local.set $at (i32.and (i32.wrap_i64 (i64.shr_u (local.get $q) (i64.const 22))) (i32.const 0x3fc)))
                (i32.store offset=39936 (local.get $at) (i32.add (i32.load offset=39936 (local.get $at)) (i32.const 1)))
                (local.set $at (i32.and (i32.wrap_i64 (i64.shr_u (local.get $q) (i64.const 30))) (i32.const 0x3fc)))
                (i32.store offset=36864 (local.get $at) (i32.add (i32.load offset=36864 (local.get $at)) (i32.const 1)))
                (local.set $at (i32.and (i32.wrap_i64 (i64.shr_u (local.get $q) (i64.const 38))) (i32.const 0x3fc)))
                (i32.store offset=37888 (local.get $at) (i32.add (i32.load offset=37888 (local.get $at)) (i32.const 1)))
                (local.set $at (i32.and (i32.wrap_i64 (i64.shr_u (local.get $q) (i64.const 46))) (i32.const 0x3fc)))
                (i32.store offset=38912 (local.get $at) (i32.add (i32.load offset=38912 (local.get $at)) (i32.const 1)))
                (local.set $at (i32.and (i32.wrap_i64 (i64.shr_u (local.get $q) (i64.const 54))) (i32.const 0x3fc)))
                (i32.store offset=39936 (local.get $at) (i32.add (i32.load offset=39936 (local.get $at)) (i32.const 1)))))
            (local.set $i (i32.add (local.get $i) (i32.const 8)))
            (br $blocks)))
        ;; A whole word after the last block.
        (if (i32.lt_u (local.get $i) (local.get $end))
          (then
            (local.set $sum (call $countWord (i32.load (i32.add (local.get $data) (local.get $i))) (local.get $sum)))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))))
        ;; The bytes after the last whole word.
        (block $tailDone
          (loop $tail
            (br_if $tailDone (i32.ge_u (local.get $i) (local.get $to)))
            (call $countByte (local.get $data) (local.get $i) (local.get $words) (local.get $sum))
            (local.set $sum)
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $tail)))
        (local.set $from (local.get $to))
        (br_if $done (i32.ge_u (local.get $k) (local.get $cutCount)))
        (call $snapshot (i32.add (local.get $cutOut) (i32.shl (local.get $k) (i32.const 10))) (local.get $zeros))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $stretches)))
    (call $snapshot (i32.const 0) (local.get $zeros))
    (i64.store (i32.const 2336) (local.get $sum))
    ;; Each range's sum.
    (local.set $k (i32.const 0))
    (block $sumsDone
      (loop $sums
        (br_if $sumsDone (i32.ge_u (local.get $k) (local.get $rangeCount)))
        (local.set $at (i32.add (local.get $ranges) (i32.shl (local.get $k) (i32.const 3))))
        ;; A range of 4,096 bytes or more may hold counts past the table.
        (if (i32.ge_u
              (i32.sub (i32.load (i32.add (local.get $cuts) (i32.shl (i32.load offset=4 (local.get $at)) (i32.const 2))))
                       (i32.load (i32.add (local.get $cuts) (i32.shl (i32.load (local.get $at)) (i32.const 2)))))
              (i32.const 4096))
          (then (call $bigTerms
            (i32.add (local.get $cutOut) (i32.shl (i32.load offset=4 (local.get $at)) (i32.const 10)))
            (i32.add (local.get $cutOut) (i32.shl (i32.load (local.get $at)) (i32.const 10))))))
        (f64.store (i32.add (local.get $sums) (i32.shl (local.get $k) (i32.const 3)))
          (call $sumCLogC
            (i32.add (local.get $cutOut) (i32.shl (i32.load offset=4 (local.get $at)) (i32.const 10)))
            (i32.add (local.get $cutOut) (i32.shl (i32.load (local.get $at)) (i32.const 10)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $sums))))

  ;; Writes a run (start, length) as number `found` (the i32 at foundAt) of the list at `out` when that is below
  ;; `limit`, and counts it.
  (func $put (param $out i32) (param $foundAt i32) (param $limit i32) (param $start i32) (param $length i32)
    (local $k i32)
    (local.set $k (i32.load (local.get $foundAt)))
    (if (i32.lt_u (local.get $k) (local.get $limit))
      (then
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 3))) (local.get $start))
        (i32.store offset=4 (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 3))) (local.get $length))))
    (i32.store (local.get $foundAt) (i32.add (local.get $k) (i32.const 1))))

;; The runs of set bits in `mask` (64 bits, bit j standing for position origin + j), given the length of the run
  ;; that came up to bit 0 (`carry`); writes every run of minLength or more that ends inside the mask and returns the
  ;; length of the run left open at its top.
  (func $runs64 (param $mask i64) (param $carry i32) (param $minLength i32)
    (param $out i32) (param $foundAt i32) (param $limit i32) (param $origin i32) (result i32)
    (local $z i32) (local $top i32) (local $inner i64) (local $q i64) (local $s i32) (local $e i32)
    (if (i64.eq (local.get $mask) (i64.const -1))
      (then (return (i32.add (local.get $carry) (i32.const 64)))))
    ;; Nothing open and no two set bits in a row, the top one clear: no run of two or more ends here or goes on.
    (if (i32.and (i32.eqz (local.get $carry))
                 (i32.and (i32.ge_u (local.get $minLength) (i32.const 2))
                          (i64.eqz (i64.and (local.get $mask)
                            (i64.or (i64.shr_u (local.get $mask) (i64.const 1)) (i64.const 0x8000000000000000))))))
      (then (return (i32.const 0))))
    ;; The run coming in ends at the first clear bit.
    (local.set $z (i32.wrap_i64 (i64.ctz (i64.xor (local.get $mask) (i64.const -1)))))
    (if (i32.ge_u (i32.add (local.get $carry) (local.get $z)) (local.get $minLength))
      (then
        (call $put (local.get $out) (local.get $foundAt) (local.get $limit)
          (i32.sub (local.get $origin) (local.get $carry))
          (i32.add (local.get $carry) (local.get $z)))))
    ;; The set bits at the top go on into the next mask.
    (local.set $top (i32.wrap_i64 (i64.clz (i64.xor (local.get $mask) (i64.const -1)))))
    ;; The runs strictly between (the top run and the incoming one left out): q marks the bits that start minLength
    ;; set bits in a row (the first such bit of a run is its start).
    (local.set $inner (i64.and (local.get $mask) (i64.shl (i64.const -1) (i64.extend_i32_u (local.get $z)))))
    (if (local.get $top)
      (then (local.set $inner (i64.and (local.get $inner)
        (i64.shr_u (i64.const -1) (i64.extend_i32_u (local.get $top)))))))
    (if (i32.and (i64.ne (local.get $inner) (i64.const 0)) (i32.le_u (local.get $minLength) (i32.const 64)))
      (then
        (local.set $q (local.get $inner))
        (local.set $s (i32.const 1))
        (block $windowDone
          (loop $window
            (br_if $windowDone (i32.ge_u (local.get $s) (local.get $minLength)))
            (local.set $q (i64.and (local.get $q) (i64.shr_u (local.get $inner) (i64.extend_i32_u (local.get $s)))))
            (local.set $s (i32.add (local.get $s) (i32.const 1)))
            (br $window)))
        (block $innerDone
          (loop $each
            (br_if $innerDone (i64.eqz (local.get $q)))
            (local.set $s (i32.wrap_i64 (i64.ctz (local.get $q))))
            (local.set $e (i32.add (local.get $s)
              (i32.wrap_i64 (i64.ctz (i64.xor (i64.shr_u (local.get $inner) (i64.extend_i32_u (local.get $s))) (i64.const -1))))))
            (call $put (local.get $out) (local.get $foundAt) (local.get $limit)
              (i32.add (local.get $origin) (local.get $s))
              (i32.sub (local.get $e) (local.get $s)))
            (local.set $q (i64.and (local.get $q) (i64.shl (i64.const -1) (i64.extend_i32_u (local.get $e)))))
            (br $each)))))
    (local.get $top))

  ;; The same for a 32-bit mask whose bit j stands for position origin + 2 * j (UTF-16LE characters).
  (func $runs32 (param $mask i32) (param $carry i32) (param $minLength i32)
    (param $out i32) (param $foundAt i32) (param $limit i32) (param $origin i32) (result i32)
    (local $z i32) (local $top i32) (local $inner i32) (local $q i32) (local $s i32) (local $e i32)
    (if (i32.eq (local.get $mask) (i32.const -1))
      (then (return (i32.add (local.get $carry) (i32.const 32)))))
    (if (i32.and (i32.eqz (local.get $carry))
                 (i32.and (i32.ge_u (local.get $minLength) (i32.const 2))
                          (i32.eqz (i32.and (local.get $mask)
                            (i32.or (i32.shr_u (local.get $mask) (i32.const 1)) (i32.const 0x80000000))))))
      (then (return (i32.const 0))))
    (local.set $z (i32.ctz (i32.xor (local.get $mask) (i32.const -1))))
    (if (i32.ge_u (i32.add (local.get $carry) (local.get $z)) (local.get $minLength))
      (then
        (call $put (local.get $out) (local.get $foundAt) (local.get $limit)
          (i32.sub (local.get $origin) (i32.shl (local.get $carry) (i32.const 1)))
          (i32.add (local.get $carry) (local.get $z)))))
    (local.set $top (i32.clz (i32.xor (local.get $mask) (i32.const -1))))
    (local.set $inner (i32.and (local.get $mask) (i32.shl (i32.const -1) (local.get $z))))
    (if (local.get $top)
      (then (local.set $inner (i32.and (local.get $inner) (i32.shr_u (i32.const -1) (local.get $top))))))
    (if (i32.and (i32.ne (local.get $inner) (i32.const 0)) (i32.le_u (local.get $minLength) (i32.const 32)))
      (then
        (local.set $q (local.get $inner))
        (local.set $s (i32.const 1))
        (block $windowDone
          (loop $window
            (br_if $windowDone (i32.ge_u (local.get $s) (local.get $minLength)))
            (local.set $q (i32.and (local.get $q) (i32.shr_u (local.get $inner) (local.get $s))))
            (local.set $s (i32.add (local.get $s) (i32.const 1)))
            (br $window)))
        (block $innerDone
          (loop $each
            (br_if $innerDone (i32.eqz (local.get $q)))
            (local.set $s (i32.ctz (local.get $q)))
            (local.set $e (i32.add (local.get $s) (i32.ctz (i32.xor (i32.shr_u (local.get $inner) (local.get $s)) (i32.const -1)))))
            (call $put (local.get $out) (local.get $foundAt) (local.get $limit)
              (i32.add (local.get $origin) (i32.shl (local.get $s) (i32.const 1)))
              (i32.sub (local.get $e) (local.get $s)))
            (local.set $q (i32.and (local.get $q) (i32.shl (i32.const -1) (local.get $e))))
            (br $each)))))
    (local.get $top))

  ;; The even bits of a 64-bit mask, packed into 32 bits.
  (func $evenBits (param $x i64) (result i32)
    (local.set $x (i64.and (local.get $x) (i64.const 0x5555555555555555)))
    (local.set $x (i64.and (i64.or (local.get $x) (i64.shr_u (local.get $x) (i64.const 1))) (i64.const 0x3333333333333333)))
    (local.set $x (i64.and (i64.or (local.get $x) (i64.shr_u (local.get $x) (i64.const 2))) (i64.const 0x0f0f0f0f0f0f0f0f)))
    (local.set $x (i64.and (i64.or (local.get $x) (i64.shr_u (local.get $x) (i64.const 4))) (i64.const 0x00ff00ff00ff00ff)))
    (local.set $x (i64.and (i64.or (local.get $x) (i64.shr_u (local.get $x) (i64.const 8))) (i64.const 0x0000ffff0000ffff)))
    (i32.wrap_i64 (i64.or (local.get $x) (i64.shr_u (local.get $x) (i64.const 16)))))

  ;; strings(data, n, minLength, asciiOut, evenOut, oddOut, limit): the runs of printable ASCII bytes (0x20 to 0x7e,
  ;; and tab) and of UTF-16LE characters (such a byte, then a zero byte) at even and at odd offsets, of minLength
  ;; or more, in order. Reads 64 bytes at a time and one past them: the caller puts at least 65 bytes that are
  ;; neither printable nor zero after the input. A block with no printable byte and no run open costs its four
  ;; compares.
  (func (export "strings") (param $data i32) (param $n i32) (param $minLength i32) (param $asciiOut i32) (param $evenOut i32) (param $oddOut i32) (param $limit i32)
    (local $base i32) (local $at i32) (local $p0 v128) (local $p1 v128) (local $p2 v128) (local $p3 v128)
    (local $printable i64) (local $zero i64) (local $wide i64)
    (local $run i32) (local $runEven i32) (local $runOdd i32)
    (i32.store (i32.const 2048) (i32.const 0))
    (i32.store (i32.const 2052) (i32.const 0))
    (i32.store (i32.const 2056) (i32.const 0))
    ;; Up to and including the block that starts at n or holds it: the bytes past the end end every open run.
    (loop $blocks
      (local.set $at (i32.add (local.get $data) (local.get $base)))
      (local.set $p0 (v128.or
        (i8x16.lt_u (i8x16.sub (v128.load (local.get $at)) (v128.const i8x16 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20))
          (v128.const i8x16 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f))
        (i8x16.eq (v128.load (local.get $at)) (v128.const i8x16 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9))))
      (local.set $p1 (v128.or
        (i8x16.lt_u (i8x16.sub (v128.load offset=16 (local.get $at)) (v128.const i8x16 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20))
          (v128.const i8x16 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f))
        (i8x16.eq (v128.load offset=16 (local.get $at)) (v128.const i8x16 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9))))
      (local.set $p2 (v128.or
        (i8x16.lt_u (i8x16.sub (v128.load offset=32 (local.get $at)) (v128.const i8x16 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20))
          (v128.const i8x16 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f))
        (i8x16.eq (v128.load offset=32 (local.get $at)) (v128.const i8x16 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9))))
      (local.set $p3 (v128.or
        (i8x16.lt_u (i8x16.sub (v128.load offset=48 (local.get $at)) (v128.const i8x16 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20))
          (v128.const i8x16 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f 0x5f))
        (i8x16.eq (v128.load offset=48 (local.get $at)) (v128.const i8x16 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9))))
      (if (i32.or (v128.any_true (v128.or (v128.or (local.get $p0) (local.get $p1)) (v128.or (local.get $p2) (local.get $p3))))
                  (i32.or (local.get $run) (i32.or (local.get $runEven) (local.get $runOdd))))
        (then
          (local.set $printable (i64.or
            (i64.or (i64.extend_i32_u (i8x16.bitmask (local.get $p0)))
                    (i64.shl (i64.extend_i32_u (i8x16.bitmask (local.get $p1))) (i64.const 16)))
            (i64.or (i64.shl (i64.extend_i32_u (i8x16.bitmask (local.get $p2))) (i64.const 32))
                    (i64.shl (i64.extend_i32_u (i8x16.bitmask (local.get $p3))) (i64.const 48)))))
          (if (i32.or (i64.ne (local.get $printable) (i64.const 0)) (local.get $run))
            (then
              (local.set $run (call $runs64 (local.get $printable) (local.get $run) (local.get $minLength)
                (local.get $asciiOut) (i32.const 2048) (local.get $limit) (local.get $base)))))
          ;; Bit j: byte j printable and byte j + 1 zero, a character of the pair starting at j.
          (local.set $zero (i64.or
            (i64.or (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (v128.load (local.get $at)) (v128.const i32x4 0 0 0 0))))
                    (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (v128.load offset=16 (local.get $at)) (v128.const i32x4 0 0 0 0)))) (i64.const 16)))
            (i64.or (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (v128.load offset=32 (local.get $at)) (v128.const i32x4 0 0 0 0)))) (i64.const 32))
                    (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (v128.load offset=48 (local.get $at)) (v128.const i32x4 0 0 0 0)))) (i64.const 48)))))
          (local.set $wide (i64.and (local.get $printable)
            (i64.or (i64.shr_u (local.get $zero) (i64.const 1))
                    (i64.shl (i64.extend_i32_u (i32.eqz (i32.load8_u offset=64 (local.get $at)))) (i64.const 63)))))
          (if (i32.or (i64.ne (local.get $wide) (i64.const 0)) (i32.or (local.get $runEven) (local.get $runOdd)))
            (then
              (local.set $runEven (call $runs32 (call $evenBits (local.get $wide)) (local.get $runEven) (local.get $minLength)
                (local.get $evenOut) (i32.const 2052) (local.get $limit) (local.get $base)))
              (local.set $runOdd (call $runs32 (call $evenBits (i64.shr_u (local.get $wide) (i64.const 1))) (local.get $runOdd) (local.get $minLength)
                (local.get $oddOut) (i32.const 2056) (local.get $limit) (i32.add (local.get $base) (i32.const 1))))))))
      (local.set $base (i32.add (local.get $base) (i32.const 64)))
      (br_if $blocks (i32.le_u (local.get $base) (local.get $n)))))

  ;; rich(data, limit, out): the Rich header in the first `limit` bytes of the input (the DOS stub, up to the NT
  ;; headers), as directories.ts readRich reads it. The "Rich" marker is the first at a multiple of 4 from 0x80 whose
  ;; word and the key after it lie below `limit`; DanS is the nearest word before it, down to 0x40, that reads "DanS"
  ;; once XORed with the key. Returns 0 without a marker, 1 with a marker and no DanS, else 2; writes at `out` the
  ;; marker's offset (1 and 2), then (2) DanS's offset and the linker's checksum as readRich computes it (the DOS header and stub up to
  ;; DanS, e_lfanew's four bytes left out, each byte rotated left by its offset; then each entry's comp.id rotated
  ;; left by its count; the sum starting from DanS's offset, modulo 2^32).
  (func (export "rich") (param $data i32) (param $limit i32) (param $out i32) (result i32)
    (local $at i32) (local $richAt i32) (local $dansAt i32) (local $key i32) (local $sum i32)
    (local.set $richAt (i32.const -1))
    (local.set $at (i32.const 0x80))
    (block $found
      (loop $scan
        (br_if $found (i32.gt_s (i32.add (local.get $at) (i32.const 8)) (local.get $limit)))
        (if (i32.eq (i32.load (i32.add (local.get $data) (local.get $at))) (i32.const 0x68636952))
          (then
            (local.set $richAt (local.get $at))
            (br $found)))
        (local.set $at (i32.add (local.get $at) (i32.const 4)))
        (br $scan)))
    (if (i32.lt_s (local.get $richAt) (i32.const 0)) (then (return (i32.const 0))))
    (i32.store (local.get $out) (local.get $richAt))
    (local.set $key (i32.load offset=4 (i32.add (local.get $data) (local.get $richAt))))
    (local.set $dansAt (i32.const -1))
    (local.set $at (i32.sub (local.get $richAt) (i32.const 4)))
    (block $back
      (loop $scanBack
        (br_if $back (i32.lt_s (local.get $at) (i32.const 0x40)))
        (if (i32.eq (i32.xor (i32.load (i32.add (local.get $data) (local.get $at))) (local.get $key)) (i32.const 0x536e6144))
          (then
            (local.set $dansAt (local.get $at))
            (br $back)))
        (local.set $at (i32.sub (local.get $at) (i32.const 4)))
        (br $scanBack)))
    (if (i32.lt_s (local.get $dansAt) (i32.const 0)) (then (return (i32.const 1))))
    (local.set $sum (local.get $dansAt))
    (local.set $at (i32.const 0))
    (block $bytesDone
      (loop $bytes
        (br_if $bytesDone (i32.ge_s (local.get $at) (local.get $dansAt)))
        (if (i32.ne (i32.and (local.get $at) (i32.const -4)) (i32.const 0x3c))
          (then
            (local.set $sum (i32.add (local.get $sum)
              (i32.rotl (i32.load8_u (i32.add (local.get $data) (local.get $at))) (local.get $at))))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $bytes)))
    (local.set $at (i32.add (local.get $dansAt) (i32.const 16)))
    (block $entriesDone
      (loop $entries
        (br_if $entriesDone (i32.gt_s (i32.add (local.get $at) (i32.const 8)) (local.get $richAt)))
        (local.set $sum (i32.add (local.get $sum)
          (i32.rotl
            (i32.xor (i32.load (i32.add (local.get $data) (local.get $at))) (local.get $key))
            (i32.xor (i32.load offset=4 (i32.add (local.get $data) (local.get $at))) (local.get $key)))))
        (local.set $at (i32.add (local.get $at) (i32.const 8)))
        (br $entries)))
    (i32.store offset=4 (local.get $out) (local.get $dansAt))
    (i32.store offset=8 (local.get $out) (local.get $sum))
    (i32.const 2))

  ;; version(data, raw, str, copied, rvaLimit, base, keyMax, out): the StringFileInfo strings of one VS_VERSIONINFO
  ;; block, walked as pe/resources.ts readVersionInfoJs walks it (pefile parse_version_information), when nothing in
  ;; the block is out of the ordinary. The block's bytes are at `data`: `raw` of them are the block (its headers are
  ;; read there), `str` (may be 0 or less) can be read as text (to the end of the section's raw data or the file),
  ;; `copied` were copied in; offsets from `rvaLimit` on lie outside the block's section; `base` is the block's RVA
  ;; modulo 4 (pefile aligns offsets so that RVA + offset is a multiple of 4); `keyMax` is how many characters of the
  ;; VS_VERSION_INFO key may be read. Writes at `out` the fixed file info's offset and the stretch [lo, hi) that holds
  ;; every key and value (when there are strings), then from `out + 16` one record
  ;; of four i32 per string (the key's offset and length in UTF-16 units, the value's offset and length) and returns
  ;; their count; returns -1 when the JavaScript reader has to walk the block instead: anything it would note, a
  ;; block that is not VS_VERSION_INFO or is cut short, a read outside the block's section, a text read past the bytes
  ;; copied, a walk past its step budget.
  (global $vData (mut i32) (i32.const 0))
  (global $vStr (mut i32) (i32.const 0))
  (global $vCopied (mut i32) (i32.const 0))
  (global $vRva (mut i32) (i32.const 0))
  (global $vBase (mut i32) (i32.const 0))
  ;; The length ustr's last string would have in pefile's measure (UTF-8, a surrogate as \uXXXX: 6).
  (global $vPlen (mut i32) (i32.const 0))

  ;; The two keys the walk compares with, as UTF-16LE (in the otherwise unused [1024, 2048)).
  (data (i32.const 1024) "V\00S\00_\00V\00E\00R\00S\00I\00O\00N\00_\00I\00N\00F\00O\00")
  (data (i32.const 1056) "S\00t\00r\00i\00n\00g\00F\00i\00l\00e\00I\00n\00f\00o\00")

  ;; pefile's dword_align(offset, rva): floor((offset + rva + 3) / 4) * 4 - floor(rva / 4) * 4.
  (func $vAlign (param $o i32) (result i32)
    (i32.and (i32.add (i32.add (local.get $o) (global.get $vBase)) (i32.const 3)) (i32.const -4)))

  (func $vU16 (param $o i32) (result i32)
    (i32.load16_u (i32.add (global.get $vData) (local.get $o))))

  ;; The UTF-16LE string at offset $o as PeImage.utf16At reads it (to an aligned NUL pair, at most $max characters,
  ;; within the readable bytes): its length in units, its pefile length into $vPlen; -1 when the read leaves the
  ;; section or the bytes copied.
  (func $vString (param $o i32) (param $max i32) (result i32)
    (local $avail i32) (local $units i32) (local $i i32) (local $u i32) (local $p i32)
    (global.set $vPlen (i32.const 0))
    (if (i32.eqz (local.get $max)) (then (return (i32.const 0))))
    (if (i32.ge_u (local.get $o) (global.get $vRva)) (then (return (i32.const -1))))
    (local.set $avail (i32.sub (global.get $vStr) (local.get $o)))
    (if (i32.lt_s (local.get $avail) (i32.const 0)) (then (local.set $avail (i32.const 0))))
    (if (i32.gt_s (local.get $avail) (i32.shl (local.get $max) (i32.const 1)))
      (then (local.set $avail (i32.shl (local.get $max) (i32.const 1)))))
    (local.set $units (i32.shr_u (local.get $avail) (i32.const 1)))
    (if (i32.and (i32.ne (local.get $units) (i32.const 0))
          (i32.gt_s (i32.add (local.get $o) (i32.shl (local.get $units) (i32.const 1))) (global.get $vCopied)))
      (then (return (i32.const -1))))
    (block $done
      (loop $scan
        (br_if $done (i32.ge_u (local.get $i) (local.get $units)))
        (local.set $u (call $vU16 (i32.add (local.get $o) (i32.shl (local.get $i) (i32.const 1)))))
        (br_if $done (i32.eqz (local.get $u)))
        (local.set $p (i32.add (local.get $p)
          (if (result i32) (i32.lt_u (local.get $u) (i32.const 0x80))
            (then (i32.const 1))
            (else
              (if (result i32) (i32.lt_u (local.get $u) (i32.const 0x800))
                (then (i32.const 2))
                (else (select (i32.const 6) (i32.const 3) (i32.eq (i32.and (local.get $u) (i32.const 0xf800)) (i32.const 0xd800)))))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $scan)))
    (global.set $vPlen (local.get $p))
    (local.get $i))

  ;; Whether the $n units at offset $o are those at address $at.
  (func $vSame (param $o i32) (param $at i32) (param $n i32) (result i32)
    (local $i i32)
    (block $differ
      (loop $each
        (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (i32.const 1))))
        (br_if $differ (i32.ne (call $vU16 (i32.add (local.get $o) (i32.shl (local.get $i) (i32.const 1))))
          (i32.load16_u (i32.add (local.get $at) (i32.shl (local.get $i) (i32.const 1))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
    (i32.const 0))

  (func (export "version") (param $data i32) (param $raw i32) (param $str i32) (param $copied i32) (param $rvaLimit i32)
    (param $base i32) (param $keyMax i32) (param $out i32) (result i32)
    (local $top i32) (local $info i32) (local $infoLen i32) (local $table i32) (local $tableLen i32) (local $entry i32)
    (local $entryLen i32) (local $len i32) (local $keyLen i32) (local $value i32) (local $valueLen i32) (local $max i32)
    (local $steps i32) (local $n i32) (local $next i32) (local $rec i32) (local $lo i32) (local $hi i32)
    (global.set $vData (local.get $data))
    (global.set $vStr (local.get $str))
    (global.set $vCopied (local.get $copied))
    (global.set $vRva (local.get $rvaLimit))
    (global.set $vBase (i32.and (local.get $base) (i32.const 3)))
    (if (i32.lt_s (local.get $raw) (i32.const 6)) (then (return (i32.const -1))))
    (local.set $top (call $vU16 (i32.const 0)))
    (if (i32.le_s (local.get $keyMax) (i32.const 0)) (then (return (i32.const -1))))
    (if (i32.ne (call $vString (i32.const 6) (local.get $keyMax)) (i32.const 15)) (then (return (i32.const -1))))
    (if (i32.eqz (call $vSame (i32.const 6) (i32.const 1024) (i32.const 15))) (then (return (i32.const -1))))
    (local.set $info (call $vAlign (i32.const 38)))
    (if (i32.gt_s (i32.add (local.get $info) (i32.const 52)) (local.get $raw)) (then (return (i32.const -1))))
    (i32.store (local.get $out) (local.get $info))
    (local.set $lo (i32.const 0x7fffffff))
    (local.set $info (call $vAlign (i32.add (local.get $info) (i32.const 52))))
    (local.set $rec (i32.add (local.get $out) (i32.const 16)))
    (loop $infos
      (local.set $steps (i32.add (local.get $steps) (i32.const 1)))
      (if (i32.gt_s (local.get $steps) (i32.const 1024)) (then (return (i32.const -1))))
      (if (i32.gt_s (i32.add (local.get $info) (i32.const 6)) (local.get $raw)) (then (return (i32.const -1))))
      (local.set $infoLen (call $vU16 (local.get $info)))
      (local.set $len (call $vString (i32.add (local.get $info) (i32.const 6)) (i32.const 1024)))
      (if (i32.lt_s (local.get $len) (i32.const 0)) (then (return (i32.const -1))))
      (if (i32.and
            (i32.and (i32.ge_s (local.get $len) (i32.const 14)) (call $vSame (i32.add (local.get $info) (i32.const 6)) (i32.const 1056) (i32.const 14)))
            (i32.and (i32.le_u (call $vU16 (i32.add (local.get $info) (i32.const 4))) (i32.const 1))
              (i32.eqz (call $vU16 (i32.add (local.get $info) (i32.const 2))))))
        (then
          (local.set $table (call $vAlign (i32.add (i32.add (local.get $info) (i32.const 6))
            (i32.shl (i32.add (global.get $vPlen) (i32.const 1)) (i32.const 1)))))
          (block $tablesDone
            (loop $tables
              (local.set $steps (i32.add (local.get $steps) (i32.const 1)))
              (if (i32.gt_s (local.get $steps) (i32.const 1024)) (then (return (i32.const -1))))
              (br_if $tablesDone (i32.gt_s (i32.add (local.get $table) (i32.const 6)) (local.get $raw)))
              (local.set $tableLen (call $vU16 (local.get $table)))
              (if (i32.lt_s (call $vString (i32.add (local.get $table) (i32.const 6)) (i32.const 1024)) (i32.const 0))
                (then (return (i32.const -1))))
              (local.set $entry (call $vAlign (i32.add (i32.add (local.get $table) (i32.const 6))
                (i32.shl (i32.add (global.get $vPlen) (i32.const 1)) (i32.const 1)))))
              (block $entriesDone
                (loop $entries
                  (br_if $entriesDone (i32.ge_s (local.get $entry) (i32.add (local.get $table) (local.get $tableLen))))
                  (local.set $steps (i32.add (local.get $steps) (i32.const 1)))
                  (if (i32.gt_s (local.get $steps) (i32.const 1024)) (then (return (i32.const -1))))
                  (br_if $entriesDone (i32.gt_s (i32.add (local.get $entry) (i32.const 6)) (local.get $raw)))
                  (local.set $entryLen (call $vU16 (local.get $entry)))
                  (local.set $keyLen (call $vString (i32.add (local.get $entry) (i32.const 6)) (i32.const 1024)))
                  (if (i32.lt_s (local.get $keyLen) (i32.const 0)) (then (return (i32.const -1))))
                  (local.set $value (call $vAlign (i32.add (i32.shl (i32.add (global.get $vPlen) (i32.const 1)) (i32.const 1))
                    (i32.add (local.get $entry) (i32.const 6)))))
                  (local.set $max (call $vU16 (i32.add (local.get $entry) (i32.const 2))))
                  (if (i32.gt_u (local.get $max) (i32.const 8192)) (then (local.set $max (i32.const 8192))))
                  (local.set $valueLen (call $vString (local.get $value) (local.get $max)))
                  (if (i32.lt_s (local.get $valueLen) (i32.const 0)) (then (return (i32.const -1))))
                  (if (i32.ge_u (local.get $value) (global.get $vRva)) (then (return (i32.const -1))))
                  (i32.store (local.get $rec) (i32.add (local.get $entry) (i32.const 6)))
                  (i32.store offset=4 (local.get $rec) (local.get $keyLen))
                  (i32.store offset=8 (local.get $rec) (local.get $value))
                  (i32.store offset=12 (local.get $rec) (local.get $valueLen))
                  (local.set $rec (i32.add (local.get $rec) (i32.const 16)))
                  (local.set $n (i32.add (local.get $n) (i32.const 1)))
                  ;; The stretch that holds every key and value: [lo, hi).
                  (if (i32.lt_s (i32.add (local.get $entry) (i32.const 6)) (local.get $lo)) (then (local.set $lo (i32.add (local.get $entry) (i32.const 6)))))
                  (if (i32.gt_s (i32.add (i32.add (local.get $entry) (i32.const 6)) (i32.shl (local.get $keyLen) (i32.const 1))) (local.get $hi))
                    (then (local.set $hi (i32.add (i32.add (local.get $entry) (i32.const 6)) (i32.shl (local.get $keyLen) (i32.const 1))))))
                  (if (local.get $valueLen)
                    (then
                      (if (i32.lt_s (local.get $value) (local.get $lo)) (then (local.set $lo (local.get $value))))
                      (if (i32.gt_s (i32.add (local.get $value) (i32.shl (local.get $valueLen) (i32.const 1))) (local.get $hi))
                        (then (local.set $hi (i32.add (local.get $value) (i32.shl (local.get $valueLen) (i32.const 1))))))))
                  (local.set $entry
                    (if (result i32) (i32.eqz (local.get $entryLen))
                      (then (i32.add (local.get $table) (local.get $tableLen)))
                      (else (call $vAlign (i32.add (local.get $entryLen) (local.get $entry))))))
                  (br $entries)))
              (local.set $next (call $vAlign (i32.add (local.get $tableLen) (local.get $table))))
              (br_if $tablesDone (i32.eq (local.get $next) (local.get $table)))
              (local.set $table (local.get $next))
              (br_if $tablesDone (i32.ge_s (local.get $table) (local.get $infoLen)))
              (br $tables)))))
      (local.set $info (call $vAlign (i32.add (local.get $infoLen) (local.get $info))))
      (br_if $infos (i32.and (i32.ne (local.get $infoLen) (i32.const 0)) (i32.lt_s (local.get $info) (local.get $top)))))
    (i32.store offset=4 (local.get $out) (local.get $lo))
    (i32.store offset=8 (local.get $out) (local.get $hi))
    (local.get $n))
)
