struct S { a: i32 }
let x = 5
