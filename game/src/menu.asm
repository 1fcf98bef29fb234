; Title screen and menu. The menu keys: 1-4 choose the controls (radio),
; 5 turns the sound on/off, 6 asks for a code (it is checked as soon as
; CODE_LENGTH letters are typed, or on ENTER), 7 asks for the player's name
; and ENTER starts the game. Any other key (ENTER too) does nothing.

CONTROL_KEMPSTON EQU 1
CONTROL_KEYBOARD EQU 2
CONTROL_SINCLAIR EQU 3
CONTROL_CURSOR   EQU 4

init_settings:
        ld a, CONTROL_KEYBOARD
        ld (control), a
        ld a, 1
        ld (sound_on), a
        ret

; Show the title until SPACE is pressed.
title_screen:
        ld hl, scr_title
        call show_screen
        call flush_keys
_wait:
        call wait_frame
_key:
        call read_char
        jr c, _wait
        cp " "
        jr nz, _key
        ret

; Run the menu until the player has typed a name: then return to play.
menu_screen:
        ld a, 1
        ld (start_level), a
        ld hl, scr_menu
        call show_screen
        call draw_markers
        call draw_sound
        call draw_start_level
_wait:
        call wait_frame
_key:
        call read_char
        jr c, _wait
        cp "1"
        jr c, _key
        cp "7" + 1
        jr nc, _key
        push af
        call clear_status
        pop af
        cp "5"
        jr c, _control
        jr z, _sound
        cp "6"
        jr z, _code
        jp enter_name                   ; "7": ask the name, then play
_control:
        sub "0"
        ld (control), a
        xor a
        ld (kempston_state), a
        call draw_markers
        jr _key
_sound:
        ld a, (sound_on)
        xor 1
        ld (sound_on), a
        call draw_sound
        jr _key
_code:
        call enter_code
        jr _key

; "*" beside the chosen control, " " beside the others.
draw_markers:
        ld a, F_MENU_MARKER_ATTR
        ld (draw_attr), a
        ld b, F_MENU_MARKER_ROW
        ld d, CONTROL_KEMPSTON
_mark:
        ld c, F_MENU_MARKER_COL
        ld a, (control)
        cp d
        ld a, "*"
        jr z, _put
        ld a, " "
_put:
        call print_char
        inc b
        inc d
        ld a, d
        cp CONTROL_CURSOR + 1
        jr nz, _mark
        ret

draw_sound:
        ld hl, msg_sound_on
        ld a, (sound_on)
        or a
        jr nz, _show
        ld hl, msg_sound_off
_show:
        jp print_text

draw_start_level:
        ld a, (start_level)
        ld bc, F_MENU_START_LEVEL_ROW * 256 + F_MENU_START_LEVEL_COL
        ld de, F_MENU_START_LEVEL_WIDTH * 256 + F_MENU_START_LEVEL_ATTR
        jp print_byte

clear_status:
        ld a, F_MENU_STATUS_ATTR
        ld (draw_attr), a
        ld bc, F_MENU_STATUS_ROW * 256 + F_MENU_STATUS_COL
        ld e, F_MENU_STATUS_WIDTH
        jp print_spaces

; Blank the whole input row (prompt and typed text).
clear_input_row:
        ld a, A_CLEAR
        ld (draw_attr), a
        ld bc, F_MENU_INPUT_ROW * 256
        ld e, 32
        jp print_spaces

; "6": read a code; a known one sets the start level.
enter_code:
        ld hl, msg_code_prompt
        call print_text
        ld a, CODE_LENGTH
        ld (input_max), a
        ld a, 1                         ; letters only; done when full
        ld (input_kind), a
        call input_text
        push af
        call clear_input_row
        pop af
        cp CODE_LENGTH
        jr nz, _wrong
        call match_code
        jr c, _wrong
        ld (start_level), a
        call draw_start_level
        ld hl, msg_code_ok
        jp print_text
_wrong:
        ld hl, msg_code_wrong
        jp print_text

; "7": read the player's name (letters and digits, ENTER ends it).
enter_name:
        ld hl, msg_name_prompt
        call print_text
        ld a, NAME_LENGTH
        ld (input_max), a
        xor a                           ; letters and digits
        ld (input_kind), a
        call input_text
        ld hl, text_input
        or a
        jr nz, _copy
        ld hl, default_name
_copy:
        ld de, player_name
        ld bc, NAME_LENGTH
        ldir
        ret

; Read up to (input_max) characters into text_input (space-padded) at the
; menu_input field, underscores marking the free places. (input_kind) 0:
; letters and digits, ENTER ends; 1: letters only, ends when full or on
; ENTER. DELETE (CAPS SHIFT + 0) takes back a character. A = length typed.
input_text:
        ld hl, text_input
        ld b, F_MENU_INPUT_WIDTH
_clear:
        ld (hl), " "
        inc hl
        djnz _clear
        ld a, F_MENU_INPUT_ATTR
        ld (draw_attr), a
        ld bc, F_MENU_INPUT_ROW * 256 + F_MENU_INPUT_COL
        ld a, (input_max)
        ld e, a
_free:
        ld a, "_"
        call print_char
        dec e
        jr nz, _free
        xor a
        ld (input_length), a
_wait:
        call wait_frame
_key:
        call read_char
        jr c, _wait
        cp CH_ENTER
        jr z, _done
        cp CH_DELETE
        jr z, _delete
        cp "A"
        jr c, _not_letter
        cp "Z" + 1
        jr c, _accept
        jr _key
_not_letter:
        cp "0"
        jr c, _key
        cp "9" + 1
        jr nc, _key
        ld d, a
        ld a, (input_kind)
        or a
        jr nz, _key                     ; no digits in codes
        ld a, d
_accept:
        ld d, a
        ld a, (input_length)
        ld hl, input_max
        cp (hl)
        jr nc, _key                     ; full
        ld e, a
        inc a
        ld (input_length), a
        ld hl, text_input
        ld b, 0
        ld c, e
        add hl, bc
        ld (hl), d
        ld a, F_MENU_INPUT_COL
        add a, e
        ld c, a
        ld b, F_MENU_INPUT_ROW
        ld a, d
        call print_char
        ld a, (input_kind)
        or a
        jr z, _key
        ld a, (input_length)
        ld hl, input_max
        cp (hl)
        jr nz, _key
_done:
        ld a, (input_length)
        ret
_delete:
        ld a, (input_length)
        or a
        jr z, _key
        dec a
        ld (input_length), a
        ld e, a
        ld hl, text_input
        ld b, 0
        ld c, e
        add hl, bc
        ld (hl), " "
        ld a, F_MENU_INPUT_COL
        add a, e
        ld c, a
        ld b, F_MENU_INPUT_ROW
        ld a, "_"
        call print_char
        jr _key
