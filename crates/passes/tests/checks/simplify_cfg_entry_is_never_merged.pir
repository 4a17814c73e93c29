; passes: simplify-cfg
; runs: main(0) main(3) main(20)
; The loop's back edge `body: br entry` is the entry's only edge, but the entry is never merged
; into its predecessor: the function starts there.
; contains: main | entry:\n    k = add k, 1\n
; contains: main | body:\n    k = add k, 2\n    br entry\n
; stat: simplify-cfg blocks_merged = 0
fn main(k: i64) -> i64 {
    var c: bool
entry:
    k = add k, 1
    c = slt k, 10
    brif c, body, done
body:
    k = add k, 2
    br entry
done:
    ret k
}
