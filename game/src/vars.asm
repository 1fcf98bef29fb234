; Variables (zero in the snapshot; set at run time where it matters).

frame_count:    DEFW 0                  ; frames since start (isr)
key_state:      DEFS 8                  ; keys down last frame, per half-row
kempston_state: DEFB 0
poll_wait:      DEFB 0                  ; frames until the next keyboard read
repeat_key:     DEFB 0                  ; the held key that repeats (0 = none)
repeat_wait:    DEFB 0                  ; frames until it repeats
key_queue:      DEFS KEY_QUEUE_SIZE
key_head:       DEFB 0                  ; next to read (main program)
key_tail:       DEFB 0                  ; next to write (isr)

timer_on:       DEFB 0
timer_ticks:    DEFB 0                  ; frames left in this second
time_left:      DEFB 0                  ; seconds
time_dirty:     DEFB 0                  ; time_left changed, redraw it
time_mark:      DEFW 0
wait_length:    DEFB 0

draw_attr:      DEFB 0                  ; attribute for drawing
num_value:      DEFS 3                  ; number to print (24 bits)
number_at:      DEFW 0
number_digits:  DEFB 0

control:        DEFB 0                  ; CONTROL_* chosen in the menu
sound_on:       DEFB 0
start_level:    DEFB 0
level:          DEFB 0
level_seconds:  DEFB 0
score:          DEFS 3                  ; 24 bits
player_name:    DEFS NAME_LENGTH, " "
text_input:     DEFS F_MENU_INPUT_WIDTH
input_max:      DEFB 0
input_kind:     DEFB 0
input_length:   DEFB 0

board:          DEFS ROWS * COLS
target:         DEFS ROWS * COLS
cursor_row:     DEFB 0                  ; cursor_col must follow (read as a pair)
cursor_col:     DEFB 0
undo_stack:     DEFS ROWS * COLS        ; placed stones, row * 16 + col
undo_count:     DEFB 0
bump_step:      DEFB 0                  ; 1 = up one, 3 = down one (round 1..4)
blank8:         DEFS 8                  ; an empty character cell
