;; The float32 kernel the gateway used before int8 rows (apps/gateway/src/search/embedded/dot-kernel.wat
;; until 2026-11-27), kept verbatim as vectors.ts's baseline: rows of `dims` f32, four lanes at a time.
(module
  (import "env" "memory" (memory 1))
  ;; out[d] = dot(query, row d) for d < n, rows of `dims` f32 (dims a multiple of 4), stored one after
  ;; another from `matrix`; returns the largest (-1 when n is 0).
  (func (export "dots") (param $query i32) (param $matrix i32) (param $n i32) (param $dims i32) (param $out i32) (result f32)
    (local $row i32) (local $end i32) (local $rowEnd i32) (local $q i32) (local $acc v128) (local $dot f32) (local $best f32)
    (local.set $best (f32.const -1))
    (local.set $row (local.get $matrix))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $acc (v128.const f32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (local.set $rowEnd (i32.add (local.get $row) (i32.shl (local.get $dims) (i32.const 2))))
        (block $rowDone
          (loop $cols
            (br_if $rowDone (i32.ge_u (local.get $row) (local.get $rowEnd)))
            (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (v128.load (local.get $q)) (v128.load (local.get $row)))))
            (local.set $q (i32.add (local.get $q) (i32.const 16)))
            (local.set $row (i32.add (local.get $row) (i32.const 16)))
            (br $cols)))
        (local.set $dot (f32.add
          (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
          (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc)))))
        (f32.store (local.get $out) (local.get $dot))
        (local.set $best (f32.max (local.get $best) (local.get $dot)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $rows)))
    (local.get $best)))
