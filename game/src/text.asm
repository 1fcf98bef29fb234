; Text and character-cell drawing with the game's own font (font_data holds
; 8 bytes per character from " " (32) to "_" (95), generated from
; game/font.txt). Positions are character cells: B = row 0..23, C = col 0..31.

; HL = screen address of pixel line 0 of cell (B, C). Keeps BC, DE.
cell_address:
        ld a, b
        and 0x18
        or 0x40
        ld h, a
        ld a, b
        and 7
        rrca
        rrca
        rrca
        or c
        ld l, a
        ret

; HL = attribute address of cell (B, C). Keeps BC, DE.
attr_address:
        ld a, b
        rrca
        rrca
        rrca
        ld l, a
        and 3
        or 0x58
        ld h, a
        ld a, l
        and 0xE0
        or c
        ld l, a
        ret

; Draw the 8 bytes at DE into cell (B, C) with attribute (draw_attr).
; Keeps BC; DE ends after the 8 bytes.
draw_cell8:
        push hl
        call attr_address
        ld a, (draw_attr)
        ld (hl), a
        call cell_address
        REPT 8                          ; unrolled: boards are 480 of these
        ld a, (de)
        ld (hl), a
        inc de
        inc h
        ENDM
        pop hl
        ret

; Print character A at (B, C) in attribute (draw_attr), then C = C + 1.
; Keeps B, DE, HL.
print_char:
        push de
        push hl
        sub 32
        ld l, a
        ld h, 0
        add hl, hl
        add hl, hl
        add hl, hl
        ld de, font_data
        add hl, de
        ex de, hl
        call draw_cell8
        inc c
        pop hl
        pop de
        ret

; Print the 0-terminated string at HL from (B, C); HL ends after the 0.
print_string:
        ld a, (hl)
        inc hl
        or a
        ret z
        call print_char
        jr print_string

; Print a text record at HL: row, col, attribute, characters, 0.
; HL ends after the record.
print_text:
        ld b, (hl)
        inc hl
        ld c, (hl)
        inc hl
        ld a, (hl)
        inc hl
        ld (draw_attr), a
        jr print_string

; Print the text records from HL up to the 0xFF that ends the list.
print_texts:
        ld a, (hl)
        cp 0xFF
        ret z
        call print_text
        jr print_texts

; Print E spaces from (B, C) in attribute (draw_attr).
print_spaces:
        ld a, " "
        call print_char
        dec e
        jr nz, print_spaces
        ret

; Clear the whole screen: no pixels, attribute A_CLEAR everywhere.
clear_screen:
        ld hl, 0x4000
        ld de, 0x4001
        ld bc, 0x1800 - 1
        ld (hl), 0
        ldir
        ld hl, 0x5800
        ld de, 0x5801
        ld bc, 0x300 - 1
        ld (hl), A_CLEAR
        ldir
        ret

; Clear screen, then print the screen's text list at HL.
show_screen:
        push hl
        call clear_screen
        pop hl
        jr print_texts

; Print num_value (24 bits) as D digits (1..6), zero-padded, from (B, C).
; num_value is used up.
print_number:
        ld (number_at), bc
        ld a, 6
        sub d
        ld e, a
        add a, a
        add a, e
        ld e, a                         ; 3 bytes per power of ten
        ld a, d
        ld (number_digits), a
        ld d, 0
        ld hl, powers_of_ten
        add hl, de
_digit:
        ld b, "0"
_subtract:
        push hl
        ld de, num_value
        or a
        ld a, (de)
        sbc a, (hl)
        ld (de), a
        inc de
        inc hl
        ld a, (de)
        sbc a, (hl)
        ld (de), a
        inc de
        inc hl
        ld a, (de)
        sbc a, (hl)
        ld (de), a
        pop hl
        jr c, _add_back
        inc b
        jr _subtract
_add_back:
        push hl
        ld de, num_value
        or a
        ld a, (de)
        adc a, (hl)
        ld (de), a
        inc de
        inc hl
        ld a, (de)
        adc a, (hl)
        ld (de), a
        inc de
        inc hl
        ld a, (de)
        adc a, (hl)
        ld (de), a
        pop hl
        ld a, b
        ld bc, (number_at)
        call print_char
        ld (number_at), bc
        inc hl
        inc hl
        inc hl
        ld a, (number_digits)
        dec a
        ld (number_digits), a
        jr nz, _digit
        ret

powers_of_ten:
        DEFB 0xA0, 0x86, 0x01           ; 100000 (pasmo values are 16-bit)
        DEFW 10000
        DEFB 0
        DEFW 1000
        DEFB 0
        DEFB 100, 0, 0
        DEFB 10, 0, 0
        DEFB 1, 0, 0

; num_value = A.
set_number_a:
        ld (num_value), a
        xor a
        ld (num_value + 1), a
        ld (num_value + 2), a
        ret

; Print byte A as a number of D digits at (B, C) in attribute E.
print_byte:
        push af
        ld a, e
        ld (draw_attr), a
        pop af
        call set_number_a
        jp print_number
