;; The cosines behind MerchantIndex's semantic matching (cosine-matrix.ts) over int8 rows
;; (vector-quantization.ts), in WebAssembly SIMD: each step loads eight int16 query codes and, for
;; each of four rows, eight row codes sign-extended to i16 (v128.load8x8_s); i32x4.dot_i16x8_s
;; multiplies and adds them pairwise into exact 32-bit sums. Rows take exactly `dims` bytes: a
;; row's last load runs into the next row's first codes, which meet the query's zero padding. Four rows a pass share each query
;; load and the loop's overhead, and their cosines are finished together in four lanes. `cosinesAt`
;; does the same for listed rows only (a query's candidates). Compiled into dot-kernel.wasm.ts by
;; scripts/build-dot-kernel.mjs.
;;
;; Measured (bench/search/vectors.ts) against dequantizing the codes to f32 lanes times a float32
;; query: this is faster (fewer instructions a code) and as accurate (the sums are exact; the int16
;; query adds about 1e-5 to the rows' 1e-3).
(module
  (import "env" "memory" (memory 1))

  ;; out[d] = f32(dot(query codes, row d's codes)) × scales[d] × queryScale for d < n; rows of `stride`
  ;; (= dims) i8 codes one after another from `codes` (readable `width` - dims bytes past the last), the
  ;; query's `width` i16 codes (dims rounded up to 8, zero-padded) at `query`; returns the largest
  ;; (-1 when n is 0).
  (func (export "cosines")
    (param $query i32) (param $codes i32) (param $scales i32) (param $n i32) (param $stride i32) (param $width i32)
    (param $queryScale f32) (param $out i32)
    (result f32)
    (local $row i32) (local $rowStart i32) (local $end i32) (local $blocksEnd i32) (local $rowEnd i32) (local $q i32)
    (local $stride2 i32) (local $stride3 i32)
    (local $a v128) (local $b v128) (local $c v128) (local $d v128) (local $qv v128) (local $sums v128)
    (local $cos4 v128) (local $best4 v128) (local $cos f32) (local $best f32)
    (local.set $best4 (v128.const f32x4 -1 -1 -1 -1))
    (local.set $best (f32.const -1))
    (local.set $stride2 (i32.shl (local.get $stride) (i32.const 1)))
    (local.set $stride3 (i32.add (local.get $stride2) (local.get $stride)))
    (local.set $row (local.get $codes))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2))))
    ;; Whole blocks of four rows.
    (local.set $blocksEnd (i32.add (local.get $out) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (block $blocksDone
      (loop $blocks
        (br_if $blocksDone (i32.ge_u (local.get $out) (local.get $blocksEnd)))
        (local.set $a (v128.const i32x4 0 0 0 0))
        (local.set $b (v128.const i32x4 0 0 0 0))
        (local.set $c (v128.const i32x4 0 0 0 0))
        (local.set $d (v128.const i32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (local.set $rowStart (local.get $row))
        (local.set $rowEnd (i32.add (local.get $row) (local.get $width)))
        (block $colsDone
          (loop $cols
            (br_if $colsDone (i32.ge_u (local.get $row) (local.get $rowEnd)))
            (local.set $qv (v128.load (local.get $q)))
            (local.set $a (i32x4.add (local.get $a) (i32x4.dot_i16x8_s (local.get $qv) (v128.load8x8_s (local.get $row)))))
            (local.set $b (i32x4.add (local.get $b)
              (i32x4.dot_i16x8_s (local.get $qv) (v128.load8x8_s (i32.add (local.get $row) (local.get $stride))))))
            (local.set $c (i32x4.add (local.get $c)
              (i32x4.dot_i16x8_s (local.get $qv) (v128.load8x8_s (i32.add (local.get $row) (local.get $stride2))))))
            (local.set $d (i32x4.add (local.get $d)
              (i32x4.dot_i16x8_s (local.get $qv) (v128.load8x8_s (i32.add (local.get $row) (local.get $stride3))))))
            (local.set $q (i32.add (local.get $q) (i32.const 16)))
            (local.set $row (i32.add (local.get $row) (i32.const 8)))
            (br $cols)))
        ;; (a0+a2, a1+a3, b0+b2, b1+b3) and the same of c, d; then lane k: row k's whole sum.
        (local.set $a (i32x4.add
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $a) (local.get $b))
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $a) (local.get $b))))
        (local.set $c (i32x4.add
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $c) (local.get $d))
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $c) (local.get $d))))
        (local.set $sums (i32x4.add
          (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $a) (local.get $c))
          (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $a) (local.get $c))))
        (local.set $cos4 (f32x4.mul
          (f32x4.mul (f32x4.convert_i32x4_s (local.get $sums)) (v128.load (local.get $scales)))
          (f32x4.splat (local.get $queryScale))))
        (v128.store (local.get $out) (local.get $cos4))
        (local.set $best4 (f32x4.max (local.get $best4) (local.get $cos4)))
        (local.set $row (i32.add (local.get $rowStart) (i32.shl (local.get $stride) (i32.const 2))))
        (local.set $scales (i32.add (local.get $scales) (i32.const 16)))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (br $blocks)))
    ;; The last n mod 4 rows, one at a time.
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $a (v128.const i32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (local.set $rowStart (local.get $row))
        (local.set $rowEnd (i32.add (local.get $row) (local.get $width)))
        (block $rowDone
          (loop $rowCols
            (br_if $rowDone (i32.ge_u (local.get $row) (local.get $rowEnd)))
            (local.set $a (i32x4.add (local.get $a)
              (i32x4.dot_i16x8_s (v128.load (local.get $q)) (v128.load8x8_s (local.get $row)))))
            (local.set $q (i32.add (local.get $q) (i32.const 16)))
            (local.set $row (i32.add (local.get $row) (i32.const 8)))
            (br $rowCols)))
        (local.set $cos (f32.mul
          (f32.mul
            (f32.convert_i32_s (i32.add
              (i32.add (i32x4.extract_lane 0 (local.get $a)) (i32x4.extract_lane 1 (local.get $a)))
              (i32.add (i32x4.extract_lane 2 (local.get $a)) (i32x4.extract_lane 3 (local.get $a)))))
            (f32.load (local.get $scales)))
          (local.get $queryScale)))
        (f32.store (local.get $out) (local.get $cos))
        (local.set $best (f32.max (local.get $best) (local.get $cos)))
        (local.set $row (i32.add (local.get $rowStart) (local.get $stride)))
        (local.set $scales (i32.add (local.get $scales) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $rows)))
    (f32.max
      (f32.max (local.get $best) (f32.max (f32x4.extract_lane 0 (local.get $best4)) (f32x4.extract_lane 1 (local.get $best4))))
      (f32.max (f32x4.extract_lane 2 (local.get $best4)) (f32x4.extract_lane 3 (local.get $best4)))))

  ;; The same cosine for the `count` rows listed at `rows` (i32 row numbers) only: out[row] for each,
  ;; one row at a time (a query's candidates, scattered over the matrix); other rows of out untouched.
  (func (export "cosinesAt")
    (param $query i32) (param $codes i32) (param $scales i32) (param $rows i32) (param $count i32) (param $stride i32)
    (param $width i32) (param $queryScale f32) (param $out i32)
    (local $r i32) (local $row i32) (local $rowEnd i32) (local $q i32) (local $listEnd i32) (local $a v128)
    (local.set $listEnd (i32.add (local.get $rows) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $rows) (local.get $listEnd)))
        (local.set $r (i32.load (local.get $rows)))
        (local.set $row (i32.add (local.get $codes) (i32.mul (local.get $r) (local.get $stride))))
        (local.set $rowEnd (i32.add (local.get $row) (local.get $width)))
        (local.set $q (local.get $query))
        (local.set $a (v128.const i32x4 0 0 0 0))
        (block $rowDone
          (loop $cols
            (br_if $rowDone (i32.ge_u (local.get $row) (local.get $rowEnd)))
            (local.set $a (i32x4.add (local.get $a)
              (i32x4.dot_i16x8_s (v128.load (local.get $q)) (v128.load8x8_s (local.get $row)))))
            (local.set $q (i32.add (local.get $q) (i32.const 16)))
            (local.set $row (i32.add (local.get $row) (i32.const 8)))
            (br $cols)))
        (f32.store
          (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (f32.mul
            (f32.mul
              (f32.convert_i32_s (i32.add
                (i32.add (i32x4.extract_lane 0 (local.get $a)) (i32x4.extract_lane 1 (local.get $a)))
                (i32.add (i32x4.extract_lane 2 (local.get $a)) (i32x4.extract_lane 3 (local.get $a)))))
              (f32.load (i32.add (local.get $scales) (i32.shl (local.get $r) (i32.const 2)))))
            (local.get $queryScale)))
        (local.set $rows (i32.add (local.get $rows) (i32.const 4)))
        (br $each))))
)
