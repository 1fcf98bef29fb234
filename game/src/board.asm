; The board: the 6x10 cells the player fills (board), the level's target
; (target), the cursor, the stack of placed stones for R (take back), and
; their drawing. Cell (row, col) is 0-based here: D = row, E = col.
; A main-board cell is a 2x2 block of character cells (tile_cell or
; tile_cursor, 4 x 8 bytes: top-left, top-right, bottom-left, bottom-right);
; its attribute comes from cell_attrs or cursor_attrs by value (0 = empty).

; A = D * COLS + E. Keeps BC, DE, HL.
cell_offset:
        push bc
        ld a, e
        ld b, d
        inc b
        jr _count
_add:
        add a, COLS
_count:
        djnz _add
        pop bc
        ret

; HL = address of board cell (D, E). Keeps BC, DE.
board_address:
        call cell_offset
        push de
        ld e, a
        ld d, 0
        ld hl, board
        add hl, de
        pop de
        ret

; Empty board, empty take-back stack, cursor at the top-left cell.
reset_board:
        ld hl, board
        ld de, board + 1
        ld bc, ROWS * COLS - 1
        ld (hl), 0
        ldir
        xor a
        ld (undo_count), a
        ld (cursor_row), a
        ld (cursor_col), a
        ret

; Draw board cell (D, E) as it is now. Keeps BC, DE, HL.
draw_board_cell:
        push bc
        push de
        push hl
        call board_address
        ld c, (hl)
        ld b, 0
        ld a, (cursor_row)
        cp d
        jr nz, _plain
        ld a, (cursor_col)
        cp e
        jr nz, _plain
        ld hl, cursor_attrs
        add hl, bc
        ld a, (hl)
        ld hl, tile_cursor
        jr _draw
_plain:
        ld hl, cell_attrs
        add hl, bc
        ld a, (hl)
        ld hl, tile_cell
_draw:
        ld (draw_attr), a
        ld a, d
        add a, a
        add a, BOARD_ROW
        ld b, a
        ld a, e
        add a, a
        add a, BOARD_COL
        ld c, a
        ex de, hl
        call draw_cell8                 ; top-left
        inc c
        call draw_cell8                 ; top-right
        dec c
        inc b
        call draw_cell8                 ; bottom-left
        inc c
        call draw_cell8                 ; bottom-right
        pop hl
        pop de
        pop bc
        ret

draw_board:
        ld d, 0
_row:
        ld e, 0
_col:
        call draw_board_cell
        inc e
        ld a, e
        cp COLS
        jr nz, _col
        inc d
        ld a, d
        cp ROWS
        jr nz, _row
        ret

; The target preview: one character cell per board cell, a hollow square in
; the value's colour for a stone, one dim dot for an empty cell.
draw_preview:
        ld hl, target
        ld b, PREVIEW_ROW
_row:
        ld c, PREVIEW_COL
_col:
        ld a, (hl)
        inc hl
        push hl
        ld e, a
        ld d, 0
        ld hl, preview_attrs
        add hl, de
        ld a, (hl)
        ld (draw_attr), a
        ld a, e
        or a
        ld de, tile_preview_empty
        jr z, _draw
        ld de, tile_preview_stone
_draw:
        call draw_cell8
        pop hl
        inc c
        ld a, c
        cp PREVIEW_COL + COLS
        jr nz, _col
        inc b
        ld a, b
        cp PREVIEW_ROW + ROWS
        jr nz, _row
        ret

; Blank the preview (no pixels, attribute A_CLEAR): between levels.
clear_preview:
        ld a, A_CLEAR
        ld (draw_attr), a
        ld b, PREVIEW_ROW
_row:
        ld c, PREVIEW_COL
_col:
        ld de, blank8
        call draw_cell8
        inc c
        ld a, c
        cp PREVIEW_COL + COLS
        jr nz, _col
        inc b
        ld a, b
        cp PREVIEW_ROW + ROWS
        jr nz, _row
        ret

; Move the cursor to (D, E) and redraw the cells it leaves and enters.
move_cursor_to:
        ld hl, (cursor_row)             ; L = row, H = col (cursor_col follows)
        ld a, d
        ld (cursor_row), a
        ld a, e
        ld (cursor_col), a
        push de
        ld d, l
        ld e, h
        call draw_board_cell
        pop de
        jp draw_board_cell

; The cursor moves; it stops at the board's edges.
cursor_up:
        ld a, (cursor_row)
        or a
        ret z
        dec a
        ld d, a
        ld a, (cursor_col)
        ld e, a
        jr move_cursor_to

cursor_down:
        ld a, (cursor_row)
        cp ROWS - 1
        ret z
        inc a
        ld d, a
        ld a, (cursor_col)
        ld e, a
        jr move_cursor_to

cursor_left:
        ld a, (cursor_col)
        or a
        ret z
        dec a
        ld e, a
        ld a, (cursor_row)
        ld d, a
        jr move_cursor_to

cursor_right:
        ld a, (cursor_col)
        cp COLS - 1
        ret z
        inc a
        ld e, a
        ld a, (cursor_row)
        ld d, a
        jr move_cursor_to

; Place a stone on the cursor cell if it is empty: it shows 1 and every
; stone next to it goes up by one (4 -> 1). Carry set when placed.
place_stone:
        ld a, (cursor_row)
        ld d, a
        ld a, (cursor_col)
        ld e, a
        call board_address
        ld a, (hl)
        or a
        ret nz                          ; a stone already: nothing (carry clear)
        ld (hl), 1
        ld hl, undo_count
        ld c, (hl)
        inc (hl)
        ld b, 0
        ld hl, undo_stack
        add hl, bc
        ld a, d
        rlca
        rlca
        rlca
        rlca
        or e
        ld (hl), a                      ; row * 16 + col
        ld a, 1
        ld (bump_step), a
        call draw_board_cell
        call bump_neighbours
        scf
        ret

; Take back the last stone placed: its cell empties and every stone next
; to it goes down by one (1 -> 4). Carry set when one was taken back.
take_back:
        ld hl, undo_count
        ld a, (hl)
        or a
        ret z                           ; none (carry clear)
        dec a
        ld (hl), a
        ld c, a
        ld b, 0
        ld hl, undo_stack
        add hl, bc
        ld a, (hl)
        and 0x0F
        ld e, a
        ld a, (hl)
        rrca
        rrca
        rrca
        rrca
        and 0x0F
        ld d, a
        call board_address
        ld (hl), 0
        ld a, 3                         ; one step back round 1..4
        ld (bump_step), a
        call draw_board_cell
        call bump_neighbours
        scf
        ret

; Move every stone next to (D, E) bump_step places round 1..4 and redraw it.
bump_neighbours:
        ld a, d
        or a
        jr z, _down
        dec d
        call bump_cell
        inc d
_down:
        ld a, d
        cp ROWS - 1
        jr z, _left
        inc d
        call bump_cell
        dec d
_left:
        ld a, e
        or a
        jr z, _right
        dec e
        call bump_cell
        inc e
_right:
        ld a, e
        cp COLS - 1
        ret z
        inc e
        call bump_cell
        dec e
        ret

bump_cell:
        call board_address
        ld a, (hl)
        or a
        ret z
        dec a
        ld b, a
        ld a, (bump_step)
        add a, b
        and 3
        inc a
        ld (hl), a
        jp draw_board_cell

; Z set when the board equals the target.
board_solved:
        ld hl, board
        ld de, target
        ld b, ROWS * COLS
_cell:
        ld a, (de)
        cp (hl)
        ret nz
        inc hl
        inc de
        djnz _cell
        ret
