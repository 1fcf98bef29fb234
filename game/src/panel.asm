; The panel (lower right): NAME, SCORE, TIME, LEVEL values, and the play
; screen's message line. Positions and attributes are the F_* fields of
; game/layout.toml.

draw_panel:
        call draw_name
        call draw_score
        call draw_level
        jp draw_time

draw_name:
        ld a, F_NAME_ATTR
        ld (draw_attr), a
        ld bc, F_NAME_ROW * 256 + F_NAME_COL
        ld hl, player_name
        ld e, NAME_LENGTH
_char:
        ld a, (hl)
        inc hl
        call print_char
        dec e
        jr nz, _char
        ret

draw_score:
        ld hl, (score)
        ld (num_value), hl
        ld a, (score + 2)
        ld (num_value + 2), a
        ld a, F_SCORE_ATTR
        ld (draw_attr), a
        ld bc, F_SCORE_ROW * 256 + F_SCORE_COL
        ld d, F_SCORE_WIDTH
        jp print_number

draw_time:
        ld a, (time_left)
        ld bc, F_TIME_ROW * 256 + F_TIME_COL
        ld de, F_TIME_WIDTH * 256 + F_TIME_ATTR
        jp print_byte

draw_level:
        ld a, (level)
        ld bc, F_LEVEL_ROW * 256 + F_LEVEL_COL
        ld de, F_LEVEL_WIDTH * 256 + F_LEVEL_ATTR
        jp print_byte

clear_message:
        ld a, F_MESSAGE_ATTR
        ld (draw_attr), a
        ld bc, F_MESSAGE_ROW * 256 + F_MESSAGE_COL
        ld e, F_MESSAGE_WIDTH
        jp print_spaces

; Show the message record at HL on the (cleared) message line.
show_message:
        push hl
        call clear_message
        pop hl
        jp print_text

; Add S_PER_LEVEL + S_PER_SECOND_LEFT * time_left to the score.
add_level_score:
        ld hl, S_PER_LEVEL
        ld de, S_PER_SECOND_LEFT
        ld a, (time_left)
        or a
        jr z, _add
        ld b, a
_mul:
        add hl, de
        djnz _mul
_add:
        ld a, (score)
        add a, l
        ld (score), a
        ld a, (score + 1)
        adc a, h
        ld (score + 1), a
        ld a, (score + 2)
        adc a, 0
        ld (score + 2), a
        ret
