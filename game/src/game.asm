; The game: levels one after another from start_level. A level ends when
; the board equals the target (WELL DONE, a transition with the preview
; blanked, and after levels 5, 10, ..., 95 the code screen) or when the
; time runs out (TIME UP, GAME OVER, back to the title). After the last
; level: the final score screen.

ACT_UP          EQU 1
ACT_DOWN        EQU 2
ACT_LEFT        EQU 3
ACT_RIGHT       EQU 4
ACT_PLACE       EQU 5
ACT_TAKE_BACK   EQU 6

; Keys that always work (Kempston directions come only when it is chosen).
always_keys:
        DEFB "Q", ACT_UP, "A", ACT_DOWN, "O", ACT_LEFT, "P", ACT_RIGHT
        DEFB " ", ACT_PLACE, "R", ACT_TAKE_BACK
        DEFB CH_UP, ACT_UP, CH_DOWN, ACT_DOWN, CH_LEFT, ACT_LEFT, CH_RIGHT, ACT_RIGHT
        DEFB CH_FIRE, ACT_PLACE, 0
; Sinclair joystick (Interface 2, port 1) = keys 6 7 8 9 0.
sinclair_keys:
        DEFB "9", ACT_UP, "8", ACT_DOWN, "6", ACT_LEFT, "7", ACT_RIGHT, "0", ACT_PLACE, 0
; Cursor keys / cursor joystick = keys 5 6 7 8 0 (with or without CAPS SHIFT).
cursor_keys:
        DEFB "7", ACT_UP, "6", ACT_DOWN, "5", ACT_LEFT, "8", ACT_RIGHT, "0", ACT_PLACE, 0

play_game:
        xor a
        ld (score), a
        ld (score + 1), a
        ld (score + 2), a
        ld a, (start_level)
        ld (level), a
        call draw_play_screen
_level:
        call run_level
        jp nc, time_up
        call level_won
        ld a, (level)
        cp LEVEL_COUNT
        jp z, final_screen
        inc a
        call find_code
        jr c, _next
        call code_screen
        call draw_play_screen
_next:
        ld hl, level
        inc (hl)
        jr _level

draw_play_screen:
        ld hl, scr_play
        call show_screen
        jp draw_name

; Play level (level) until it is solved (carry set) or the time is up
; (carry clear).
run_level:
        call load_target
        call level_time
        ld (level_seconds), a
        ld (time_left), a
        call reset_board
        call draw_board
        call clear_message
        call draw_panel
        call flush_keys
        call wait_frame                 ; the preview is drawn at the top of a frame,
        call draw_preview               ; ahead of the beam, after all else is shown
        ld a, (level_seconds)
        call start_timer
_frame:
        call wait_frame
        ld a, (time_dirty)
        or a
        jr z, _keys
        xor a
        ld (time_dirty), a
        call draw_time
        ld a, (time_left)
        or a
        jr z, _time_up
_keys:
        call read_char
        jr c, _frame
        call key_action
        jr z, _keys
        cp ACT_UP
        jr nz, _not_up
        call cursor_up
        jr _keys
_not_up:
        cp ACT_DOWN
        jr nz, _not_down
        call cursor_down
        jr _keys
_not_down:
        cp ACT_LEFT
        jr nz, _not_left
        call cursor_left
        jr _keys
_not_left:
        cp ACT_RIGHT
        jr nz, _not_right
        call cursor_right
        jr _keys
_not_right:
        cp ACT_PLACE
        jr nz, _not_place
        call place_stone
        jr nc, _keys
        call sound_place
        jr _changed
_not_place:
        call take_back                  ; ACT_TAKE_BACK
        jr nc, _keys
        call sound_take_back
_changed:
        call board_solved
        jr nz, _keys
        call stop_timer
        scf
        ret
_time_up:
        call stop_timer
        or a
        ret

; A = the action of character A (0 and Z set for none).
key_action:
        ld c, a
        ld hl, always_keys
        call find_action
        ret nz
        ld a, (control)
        ld hl, sinclair_keys
        cp CONTROL_SINCLAIR
        jr z, find_action
        ld hl, cursor_keys
        cp CONTROL_CURSOR
        jr z, find_action
        xor a
        ret

; A = the action for character C in the table at HL (0 and Z set if none).
find_action:
        ld a, (hl)
        or a
        ret z
        inc hl
        cp c
        ld a, (hl)
        inc hl
        jr nz, find_action
        or a
        ret

; Solved: score, WELL DONE, preview blanked for T_TRANSITION_FRAMES. The
; preview is blanked last, at the top of the next frame, so a frame that shows
; the transition also shows the new score (Fuse draws lines as the beam runs).
level_won:
        call mark_time
        call add_level_score
        call draw_score
        ld hl, msg_well_done
        call show_message
        call wait_frame
        call clear_preview
        call sound_well_done
        ld a, T_TRANSITION_FRAMES
        jp wait_since_mark

; The code screen: HL = the code of level (level) + 1.
code_screen:
        push hl
        ld hl, scr_code
        call show_screen
        ld a, (level)
        ld bc, F_CODE_DONE_ROW * 256 + F_CODE_DONE_COL
        ld de, F_CODE_DONE_WIDTH * 256 + F_CODE_DONE_ATTR
        call print_byte
        ld a, (level)
        inc a
        ld bc, F_CODE_LEVEL_ROW * 256 + F_CODE_LEVEL_COL
        ld de, F_CODE_LEVEL_WIDTH * 256 + F_CODE_LEVEL_ATTR
        call print_byte
        ld a, F_CODE_WORD_ATTR
        ld (draw_attr), a
        ld bc, F_CODE_WORD_ROW * 256 + F_CODE_WORD_COL
        pop hl
        ld e, CODE_LENGTH
_letter:
        ld a, (hl)
        inc hl
        call print_char
        dec e
        jr nz, _letter
        call mark_time                  ; counted once the screen is complete
        ld a, T_CODE_SCREEN_FRAMES
        jp wait_since_mark_or_key

; Out of time: TIME UP with the preview blanked, then GAME OVER, then the
; caller returns to the title.
time_up:
        call mark_time
        ld hl, msg_time_up
        call show_message
        call wait_frame
        call clear_preview
        call sound_time_up
        ld a, T_TIME_UP_FRAMES
        call wait_since_mark
        ld hl, scr_game_over
        call show_screen
        call load_score_number
        ld a, F_GAME_OVER_SCORE_ATTR
        ld (draw_attr), a
        ld bc, F_GAME_OVER_SCORE_ROW * 256 + F_GAME_OVER_SCORE_COL
        ld d, F_GAME_OVER_SCORE_WIDTH
        call print_number
        ld a, (level)
        ld bc, F_GAME_OVER_LEVEL_ROW * 256 + F_GAME_OVER_LEVEL_COL
        ld de, F_GAME_OVER_LEVEL_WIDTH * 256 + F_GAME_OVER_LEVEL_ATTR
        call print_byte
        call mark_time                  ; counted once the screen is complete
        ld a, T_GAME_OVER_FRAMES
        jp wait_since_mark_or_key

; Every level solved: the final score until SPACE or ENTER.
final_screen:
        ld hl, scr_final
        call show_screen
        call load_score_number
        ld a, F_FINAL_SCORE_ATTR
        ld (draw_attr), a
        ld bc, F_FINAL_SCORE_ROW * 256 + F_FINAL_SCORE_COL
        ld d, F_FINAL_SCORE_WIDTH
        call print_number
        call flush_keys
_wait:
        call wait_frame
_key:
        call read_char
        jr c, _wait
        cp " "
        ret z
        cp CH_ENTER
        ret z
        jr _key

load_score_number:
        ld hl, (score)
        ld (num_value), hl
        ld a, (score + 2)
        ld (num_value + 2), a
        ret

; Remember the current frame for wait_since_mark.
mark_time:
        ld hl, (frame_count)
        ld (time_mark), hl
        ret

; A = frames since mark_time (255 at most).
frames_since_mark:
        ld hl, (frame_count)
        ld de, (time_mark)
        or a
        sbc hl, de
        ld a, h
        or a
        ld a, l
        ret z
        ld a, 255
        ret

; Wait until A frames have passed since mark_time; keys pressed meanwhile
; are dropped.
wait_since_mark:
        ld (wait_length), a
_check:
        call flush_keys
        call frames_since_mark
        ld hl, wait_length
        cp (hl)
        ret nc
        call wait_frame
        jr _check

; The same, but SPACE or ENTER ends the wait early.
wait_since_mark_or_key:
        ld (wait_length), a
_check:
        call read_char
        jr c, _no_key
        cp " "
        ret z
        cp CH_ENTER
        ret z
        jr _check
_no_key:
        call frames_since_mark
        ld hl, wait_length
        cp (hl)
        ret nc
        call wait_frame
        jr _check
