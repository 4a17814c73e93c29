; passes: simplify-cfg
; runs: main(0) main(5) main(-3) main(100)
; Chains of empty forwarding blocks are threaded to where they end, each block walked once
; (following every forwarder's chain to its end separately was quadratic: 100,000 empty
; blocks in a row took 10.5 s). Two chains share a tail (`a1 -> a2 -> t1 -> t2 -> join` and
; `b1 -> t1 -> ...`: the second stops where the first was resolved), so both edges of
; `go`'s branch reach `join` and the branch folds. A chain that runs into a cycle of empty
; blocks (`spin -> s1 -> s2 -> s3 -> s2`, reached only for k > 100) is left alone: an empty
; infinite loop stays one (after merging, `s2: br s2`).
; contains: main | s2:\n    br s2\n
; lacks: main | a1:
; lacks: main | b1:
; lacks: main | t2:
; lacks: main | brif c, join, join
fn main(k: i64) -> i64 {
    var c: bool
    var x: i64
entry:
    x = copy k
    c = sgt k, 100
    brif c, spin, go
spin:
    br s1
s1:
    br s2
s2:
    br s3
s3:
    br s2
go:
    c = sgt k, 0
    brif c, a1, b1
a1:
    br a2
a2:
    br t1
b1:
    br t1
t1:
    br t2
t2:
    br join
join:
    x = add x, 7
    ret x
}
