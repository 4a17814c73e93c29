struct S8 { a: i32, b: i32 }

fn helper(x: i64, y: i64) -> i64 {
entry:
    ret x
}

fn main() -> i64 {
    var count: i64
    var s: S8
entry:
    count = add cuont, 1
    s = make S8(1, 2)
    count = getfield s.aa
    count = call helpr(count)
    br exitt
exit:
    ret count
}
