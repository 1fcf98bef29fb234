; Levels and codes: level_data (ROWS * COLS bytes per level, 0 = empty,
; 1..4 = stone) and code_table (level byte, CODE_LENGTH letters per code)
; are generated from game/levels.txt.

; Copy level (level) into target; A = its number of stones.
load_target:
        ld hl, level_data
        ld de, ROWS * COLS
        ld a, (level)
        dec a
        jr z, _copy
        ld b, a
_skip:
        add hl, de
        djnz _skip
_copy:
        ld de, target
        ld bc, ROWS * COLS
        ldir
        ld hl, target
        ld b, ROWS * COLS
        ld c, 0
_count:
        ld a, (hl)
        or a
        jr z, _empty
        inc c
_empty:
        inc hl
        djnz _count
        ld a, c
        ret

; A = seconds for a target of A stones: T_BASE_SECONDS + T_SECONDS_PER_STONE * A.
level_time:
        ld b, a
        inc b
        ld a, T_BASE_SECONDS
        jr _count
_add:
        add a, T_SECONDS_PER_STONE
_count:
        djnz _add
        ret

; HL = the code that starts level A; carry set when no code starts it.
find_code:
        ld c, a
        ld hl, code_table
        ld b, CODE_COUNT
        ld de, CODE_LENGTH
_entry:
        ld a, (hl)
        inc hl
        cp c
        ret z                           ; found (carry clear)
        add hl, de
        djnz _entry
        scf
        ret

; A = the level the code in text_input starts; carry set when it is no code.
match_code:
        ld hl, code_table
        ld b, CODE_COUNT
_entry:
        ld c, (hl)
        inc hl
        push hl
        push bc
        ld de, text_input
        ld b, CODE_LENGTH
_letter:
        ld a, (de)
        cp (hl)
        jr nz, _differs
        inc hl
        inc de
        djnz _letter
_differs:
        ld a, b                         ; 0 when every letter matched
        pop bc
        pop hl
        or a
        jr z, _found
        ld de, CODE_LENGTH
        add hl, de
        djnz _entry
        scf
        ret
_found:
        ld a, c
        ret                             ; carry clear (from "or a")
