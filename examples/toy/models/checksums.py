"""Independent models of the toy pool programs (bitmap_slab, object_pool, gen_pool).

Written from the pool descriptions, not from the toy code's output; tests/toy.rs pins the
checksums this prints. Run: python3 examples/toy/models/checksums.py
"""

M = 1 << 64


def wrap(x):
    x %= M
    return x - M if x >= 1 << 63 else x


def mix(h, x):
    return wrap(h * 31 + x)


def lcg(x):
    return (x * 1103515245 + 12345) % 2147483648


def bitmap_slab():
    chunks = []  # each: [bitmap as a set of used slots, 16 values]
    data = {}

    def alloc(value):
        for c, used in enumerate(chunks):
            if len(used) < 16:
                b = min(set(range(16)) - used)
                used.add(b)
                data[c * 16 + b] = value
                return c * 16 + b
        chunks.append({0})
        data[(len(chunks) - 1) * 16] = value
        return (len(chunks) - 1) * 16

    def free(handle):
        used = chunks[handle // 16]
        assert handle % 16 in used
        used.remove(handle % 16)

    live, h = [], 0
    for r in range(40):
        for k in range(10 + r % 7):
            handle = alloc(r * 100 + k)
            live.append(handle)
            h = mix(h, handle)
        kept = []
        for j, handle in enumerate(live):
            if (j * 5 + r) % 3 == 0:
                free(handle)
            else:
                kept.append(handle)
        live = kept
    s = len(chunks)
    for c, used in enumerate(chunks):
        for b in sorted(used):
            s = mix(s, c * 16 + b)
            s = mix(s, data[c * 16 + b])
    return mix(h, s)


def object_pool():
    objs, free = [], []  # obj: [size, tag, uses, live]
    news = drops = denials = reuses = 0
    live, x = [], 42
    for step in range(300):
        x = lcg(x)
        if x % 3 != 0 or not live:
            size = x % 100 + 1
            if free:
                i = free.pop()
                objs[i] = [size, step, objs[i][2] + 1, True]
                reuses += 1
            else:
                objs.append([size, step, 1, True])
                i = len(objs) - 1
                news += 1
            live.append(i)
        else:
            j = x % len(live)
            i = live[j]
            assert objs[i][3]
            objs[i][3] = False
            drops += 1
            if objs[i][0] > 64:
                denials += 1
            else:
                free.append(i)
            live[j] = live[-1]
            live.pop()
    h = 0
    for v in (news, drops, denials, reuses):
        h = mix(h, v)
    for size, tag, uses, alive in objs:
        for v in (size, tag, uses, int(alive)):
            h = mix(h, v)
    return mix(h, len(live))


def gen_pool():
    slots, free = [], []  # slot: [value, gen, live]
    handles, x = [], 7
    total = stale = failed = 0

    def valid(handle):
        idx, gen = handle & 0xFFFFFFFF, handle >> 32
        return idx < len(slots) and slots[idx][1] == gen and slots[idx][2]

    for _ in range(400):
        x = lcg(x)
        op = (x >> 16) % 4
        if op < 2 or not handles:
            value = x % 1000
            if free:
                idx = free.pop()
                slots[idx][0], slots[idx][2] = value, True
            else:
                idx = len(slots)
                slots.append([value, 0, True])
            handles.append(slots[idx][1] << 32 | idx)
        elif op == 2:
            handle = handles[(x >> 4) % len(handles)]
            if valid(handle):
                idx = handle & 0xFFFFFFFF
                slots[idx][2] = False
                slots[idx][1] += 1
                free.append(idx)
            else:
                failed += 1
        else:
            handle = handles[(x >> 4) % len(handles)]
            if valid(handle):
                total += slots[handle & 0xFFFFFFFF][0]
            else:
                stale += 1
    h = mix(mix(mix(0, total), stale), failed)
    for value, gen, alive in slots:
        h = mix(mix(mix(h, value), gen), int(alive))
    return h


if __name__ == "__main__":
    print("bitmap_slab", bitmap_slab())
    print("object_pool", object_pool())
    print("gen_pool", gen_pool())
