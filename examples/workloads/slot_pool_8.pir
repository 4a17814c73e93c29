; Slot pool workloads with 8-byte slots (described in docs/benchmarks.md), written the way a
; simple front end emits them: a temporary for every pop/get/push value and every
; subexpression, the short-circuit `i < 0 || i >= len` check as two branches, and the
; checked pop guarded by a length test. Entries: append, lifo, scattered (n, rounds) -> i64.

struct S8 { a: i32, b: i32 }

fn make8(k: i64) -> S8 {
    var t0: i32
    var t1: i64
    var t2: i32
    var t3: S8
entry:
    t0 = trunc k
    t1 = mul k, 7
    t2 = trunc t1
    t3 = make S8(t0, t2)
    ret t3
}

fn alloc(items: vec<S8>, free: vec<i64>, v: S8) -> i64 {
    var i: i64
    var t0: i64
    var t1: bool
    var t2: i64
    var t3: bool
    var t4: i64
    var t5: bool
    var t6: S8
    var t7: i64
    var t8: S8
entry:
    t0 = len free
    t1 = sgt t0, 0
    brif t1, reuse, append
reuse:
    t2 = pop free
    i = copy t2
    t3 = slt i, 0
    brif t3, bad_index, check_hi
check_hi:
    t4 = len items
    t5 = sge i, t4
    brif t5, bad_index, store
store:
    t6 = copy v
    set items[i], t6
    ret i
bad_index:
    trap "slot index out of range"
append:
    t7 = len items
    i = copy t7
    t8 = copy v
    push items, t8
    ret i
}

fn release(items: vec<S8>, free: vec<i64>, i: i64) {
    var t0: bool
    var t1: i64
    var t2: bool
    var t3: i64
entry:
    t0 = slt i, 0
    brif t0, bad_index, check_hi
check_hi:
    t1 = len items
    t2 = sge i, t1
    brif t2, bad_index, push_free
push_free:
    t3 = copy i
    push free, t3
    ret
bad_index:
    trap "slot index out of range"
}

fn mix(h: i64, x: i64) -> i64 {
    var t0: i64
    var t1: i64
entry:
    t0 = mul h, 31
    t1 = add t0, x
    ret t1
}

fn checksum(items: vec<S8>) -> i64 {
    var h: i64
    var k: i64
    var s: S8
    var t0: i64
    var t1: bool
    var t2: S8
    var t3: i32
    var t4: i64
    var t5: i64
    var t6: i32
    var t7: i64
    var t8: i64
    var t9: i64
entry:
    h = copy 0
    k = copy 0
    br k_head
k_head:
    t0 = len items
    t1 = slt k, t0
    brif t1, k_body, k_done
k_body:
    t2 = get items[k]
    s = copy t2
    t3 = getfield s.a
    t4 = sext t3
    t5 = call mix(h, t4)
    h = copy t5
    t6 = getfield s.b
    t7 = sext t6
    t8 = call mix(h, t7)
    h = copy t8
    t9 = add k, 1
    k = copy t9
    br k_head
k_done:
    ret h
}

fn append_owner(n: i64, rounds: i64, seed: i64) -> i64 {
    var h: i64
    var r: i64
    var k: i64
    var items: vec<S8>
    var free: vec<i64>
    var i: i64
    var t0: bool
    var t1: bool
    var t2: i64
    var t3: i64
    var t4: i64
    var t5: S8
    var t6: i64
    var t7: bool
    var t8: i64
    var t9: i64
    var t10: i64
    var t11: i64
entry:
    h = copy 0
    r = copy 0
    br r_head
r_head:
    t0 = slt r, rounds
    brif t0, r_body, r_done
r_body:
    items = new vec<S8>
    free = new vec<i64>
    k = copy 0
    br k_head
k_head:
    t1 = slt k, n
    brif t1, k_body, k_done
k_body:
    t2 = mul r, n
    t3 = add seed, t2
    t4 = add t3, k
    t5 = call make8(t4)
    t6 = call alloc(items, free, t5)
    i = copy t6
    t7 = ne i, k
    brif t7, wrong_index, k_ok
k_ok:
    t8 = add k, 1
    k = copy t8
    br k_head
k_done:
    t9 = call checksum(items)
    t10 = call mix(h, t9)
    h = copy t10
    drop items
    drop free
    t11 = add r, 1
    r = copy t11
    br r_head
r_done:
    ret h
wrong_index:
    trap "append: alloc returned an unexpected index"
}

fn lifo_owner(n: i64, rounds: i64, seed: i64) -> i64 {
    var r: i64
    var k: i64
    var items: vec<S8>
    var free: vec<i64>
    var idx: vec<i64>
    var i: i64
    var t0: bool
    var t1: i64
    var t2: bool
    var t3: bool
    var t4: i64
    var t5: i64
    var t6: i64
    var t7: S8
    var t8: i64
    var t9: i64
    var t10: bool
    var t11: i64
    var t12: i64
    var t13: bool
    var t14: i64
    var t15: i64
    var t16: i64
    var t17: i64
entry:
    items = new vec<S8>
    free = new vec<i64>
    idx = new vec<i64>
    k = copy 0
    br fill_head
fill_head:
    t0 = slt k, n
    brif t0, fill_body, fill_done
fill_body:
    push idx, 0
    t1 = add k, 1
    k = copy t1
    br fill_head
fill_done:
    r = copy 0
    br r_head
r_head:
    t2 = slt r, rounds
    brif t2, r_body, r_done
r_body:
    k = copy 0
    br k_head
k_head:
    t3 = slt k, n
    brif t3, k_body, k_done
k_body:
    t4 = mul r, n
    t5 = add seed, t4
    t6 = add t5, k
    t7 = call make8(t6)
    t8 = call alloc(items, free, t7)
    set idx[k], t8
    t9 = get idx[k]
    t10 = ne t9, k
    brif t10, wrong_index, k_ok
k_ok:
    t11 = add k, 1
    k = copy t11
    br k_head
k_done:
    t12 = sub n, 1
    k = copy t12
    br down_head
down_head:
    t13 = sge k, 0
    brif t13, down_body, down_done
down_body:
    t14 = get idx[k]
    call release(items, free, t14)
    t15 = sub k, 1
    k = copy t15
    br down_head
down_done:
    t16 = add r, 1
    r = copy t16
    br r_head
r_done:
    t17 = call checksum(items)
    ret t17
wrong_index:
    trap "lifo: alloc returned an unexpected index"
}

fn scattered_owner(n: i64, rounds: i64, seed: i64) -> i64 {
    var r: i64
    var k: i64
    var m: i64
    var half: i64
    var j: i64
    var items: vec<S8>
    var free: vec<i64>
    var i: i64
    var t0: bool
    var t1: i64
    var t2: S8
    var t3: i64
    var t4: i64
    var t5: i64
    var t6: bool
    var t7: bool
    var t8: i64
    var t9: i64
    var t10: i64
    var t11: i64
    var t12: i64
    var t13: bool
    var t14: i64
    var t15: i64
    var t16: i64
    var t17: i64
    var t18: S8
    var t19: i64
    var t20: i64
    var t21: i64
    var t22: i64
    var t23: i64
    var t24: i64
    var t25: i64
    var t26: bool
    var t27: i64
    var t28: i64
    var t29: i64
entry:
    items = new vec<S8>
    free = new vec<i64>
    k = copy 0
    br fill_head
fill_head:
    t0 = slt k, n
    brif t0, fill_body, fill_done
fill_body:
    t1 = add seed, k
    t2 = call make8(t1)
    t3 = call alloc(items, free, t2)
    t4 = add k, 1
    k = copy t4
    br fill_head
fill_done:
    t5 = sdiv n, 2
    half = copy t5
    r = copy 0
    br r_head
r_head:
    t6 = slt r, rounds
    brif t6, r_body, r_done
r_body:
    k = copy 0
    br rel_head
rel_head:
    t7 = slt k, half
    brif t7, rel_body, rel_done
rel_body:
    t8 = mul k, 7919
    t9 = mul r, 13
    t10 = add t8, t9
    t11 = srem t10, n
    j = copy t11
    call release(items, free, j)
    t12 = add k, 1
    k = copy t12
    br rel_head
rel_done:
    m = copy 0
    br m_head
m_head:
    t13 = slt m, half
    brif t13, m_body, m_done
m_body:
    t14 = add r, 1
    t15 = mul t14, n
    t16 = add seed, t15
    t17 = add t16, m
    t18 = call make8(t17)
    t19 = call alloc(items, free, t18)
    i = copy t19
    t20 = sub half, 1
    t21 = sub t20, m
    t22 = mul t21, 7919
    t23 = mul r, 13
    t24 = add t22, t23
    t25 = srem t24, n
    t26 = ne i, t25
    brif t26, wrong_index, m_ok
m_ok:
    t27 = add m, 1
    m = copy t27
    br m_head
m_done:
    t28 = add r, 1
    r = copy t28
    br r_head
r_done:
    t29 = call checksum(items)
    ret t29
wrong_index:
    trap "scattered: alloc returned an unexpected index"
}

fn append(n: i64, rounds: i64) -> i64 {
    var t0: i64
    var t1: i64
    var t2: i64
entry:
    t0 = call append_owner(n, rounds, 0)
    t1 = call append_owner(n, rounds, 1)
    t2 = call mix(t0, t1)
    ret t2
}

fn lifo(n: i64, rounds: i64) -> i64 {
    var t0: i64
    var t1: i64
    var t2: i64
entry:
    t0 = call lifo_owner(n, rounds, 0)
    t1 = call lifo_owner(n, rounds, 1)
    t2 = call mix(t0, t1)
    ret t2
}

fn scattered(n: i64, rounds: i64) -> i64 {
    var t0: i64
    var t1: i64
    var t2: i64
entry:
    t0 = call scattered_owner(n, rounds, 0)
    t1 = call scattered_owner(n, rounds, 1)
    t2 = call mix(t0, t1)
    ret t2
}
