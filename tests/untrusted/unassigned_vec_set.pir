; Storing into a never-assigned vec traps index_oob at any index.
; entry: main
; args: 0
; expect: trap index_oob
struct S { a: i32, b: i32 }

fn main(i: i64) -> i64 {
    var v: vec<S>
entry:
    set v[i].b, 5
    ret 0
}
