;; The cosines behind MerchantIndex's semantic matching (cosine-matrix.ts) over int8 rows
;; (vector-quantization.ts), eight dimensions at a time (WebAssembly SIMD): each step loads eight
;; row codes sign-extended to i16 and eight int16 query codes, and i32x4.dot_i16x8_s multiplies
;; and adds them pairwise into four exact 32-bit sums. Compiled into dot-kernel.wasm.ts by
;; scripts/build-dot-kernel.mjs.
;;
;; Measured against dequantizing the codes to f32 lanes and multiplying by a float32 query
;; (bench/search/vectors.ts, int8-f32 kernel): this is faster (fewer instructions a byte) and as
;; accurate (integer sums are exact; the int16 query adds about 1e-5).
(module
  (import "env" "memory" (memory 1))
  ;; out[d] = f32(dot(query codes, row d's codes)) × scales[d] × queryScale for d < n; rows of `stride`
  ;; i8 codes (a multiple of 8, zero-padded) one after another from `codes`, the query `stride` i16
  ;; from `query`; returns the largest (-1 when n is 0).
  (func (export "cosines")
    (param $query i32) (param $codes i32) (param $scales i32) (param $n i32) (param $stride i32) (param $queryScale f32) (param $out i32)
    (result f32)
    (local $row i32) (local $end i32) (local $rowEnd i32) (local $q i32) (local $acc v128) (local $cos f32) (local $best f32)
    (local.set $best (f32.const -1))
    (local.set $row (local.get $codes))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (local.set $rowEnd (i32.add (local.get $row) (local.get $stride)))
        (block $rowDone
          (loop $cols
            (br_if $rowDone (i32.ge_u (local.get $row) (local.get $rowEnd)))
            (local.set $acc (i32x4.add (local.get $acc)
              (i32x4.dot_i16x8_s (v128.load (local.get $q)) (v128.load8x8_s (local.get $row)))))
            (local.set $q (i32.add (local.get $q) (i32.const 16)))
            (local.set $row (i32.add (local.get $row) (i32.const 8)))
            (br $cols)))
        (local.set $cos (f32.mul
          (f32.mul
            (f32.convert_i32_s (i32.add
              (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
              (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
            (f32.load (local.get $scales)))
          (local.get $queryScale)))
        (f32.store (local.get $out) (local.get $cos))
        (local.set $best (f32.max (local.get $best) (local.get $cos)))
        (local.set $scales (i32.add (local.get $scales) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $rows)))
    (local.get $best)))
