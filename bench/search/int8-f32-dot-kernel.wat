;; The alternative to the gateway's int8 kernel that vectors.ts measures and the gateway does not
;; use: int8 row codes dequantized to f32 lanes (sign-extend to i16, to i32, convert) and
;; multiplied by a float32 query, one row at a time; rows padded with zero codes to a multiple of 8.
(module
  (import "env" "memory" (memory 1))
  ;; out[d] = dot(query f32 × stride, row d's codes) × scales[d]; returns the largest (-1 when n is 0).
  (func (export "cosines")
    (param $query i32) (param $codes i32) (param $scales i32) (param $n i32) (param $stride i32) (param $out i32)
    (result f32)
    (local $row i32) (local $end i32) (local $rowEnd i32) (local $q i32) (local $acc v128) (local $wide v128) (local $cos f32) (local $best f32)
    (local.set $best (f32.const -1))
    (local.set $row (local.get $codes))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $acc (v128.const f32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (local.set $rowEnd (i32.add (local.get $row) (local.get $stride)))
        (block $rowDone
          (loop $cols
            (br_if $rowDone (i32.ge_u (local.get $row) (local.get $rowEnd)))
            (local.set $wide (v128.load8x8_s (local.get $row)))
            (local.set $acc (f32x4.add (local.get $acc)
              (f32x4.mul (v128.load (local.get $q)) (f32x4.convert_i32x4_s (i32x4.extend_low_i16x8_s (local.get $wide))))))
            (local.set $acc (f32x4.add (local.get $acc)
              (f32x4.mul (v128.load offset=16 (local.get $q)) (f32x4.convert_i32x4_s (i32x4.extend_high_i16x8_s (local.get $wide))))))
            (local.set $q (i32.add (local.get $q) (i32.const 32)))
            (local.set $row (i32.add (local.get $row) (i32.const 8)))
            (br $cols)))
        (local.set $cos (f32.mul
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
            (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc))))
          (f32.load (local.get $scales))))
        (f32.store (local.get $out) (local.get $cos))
        (local.set $best (f32.max (local.get $best) (local.get $cos)))
        (local.set $scales (i32.add (local.get $scales) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $rows)))
    (local.get $best)))
