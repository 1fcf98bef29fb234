; Keyboard: read by the interrupt once per frame, by edge. A key that goes
; down puts one code in a 16-entry queue, however long it is held, so one
; press is one move. The main program takes codes out with read_char.
;
; Key numbers: half-row h (port 0xFEFE, 0xFDFE, ..., 0x7FFE) times 5, plus
; the bit (0 = outermost key). 40..44 are the Kempston joystick's right,
; left, down, up and fire; 45 is DELETE (CAPS SHIFT held when 0 goes down).

KEY_ZERO        EQU 20                  ; key number of "0"
KEY_DELETE      EQU 45
KEY_QUEUE_SIZE  EQU 16                  ; a power of two

; Characters read_char returns besides letters, digits and space.
CH_ENTER        EQU 13
CH_DELETE       EQU 8
CH_NONE         EQU 0                   ; CAPS SHIFT, SYMBOL SHIFT
CH_UP           EQU 0x80                ; joystick directions and fire
CH_DOWN         EQU 0x81
CH_LEFT         EQU 0x82
CH_RIGHT        EQU 0x83
CH_FIRE         EQU 0x84

key_chars:
        DEFB CH_NONE, "ZXCV"            ; 0xFEFE: CAPS SHIFT Z X C V
        DEFB "ASDFG"                    ; 0xFDFE
        DEFB "QWERT"                    ; 0xFBFE
        DEFB "12345"                    ; 0xF7FE
        DEFB "09876"                    ; 0xEFFE
        DEFB "POIUY"                    ; 0xDFFE
        DEFB CH_ENTER, "LKJH"           ; 0xBFFE
        DEFB " ", CH_NONE, "MNB"        ; 0x7FFE: SPACE SYMBOL-SHIFT M N B
        DEFB CH_RIGHT, CH_LEFT, CH_DOWN, CH_UP, CH_FIRE
        DEFB CH_DELETE

; Called by isr: read the 8 half-rows, queue every key that went down.
scan_keyboard:
        ld hl, key_state
        ld e, 0                         ; key number of bit 0 of this half-row
        ld d, 0xFE                      ; half-row select (high byte of the port)
_row:
        ld b, d
        ld c, 0xFE
        in a, (c)
        cpl
        and 0x1F                        ; bit set = key down
        ld c, a
        xor (hl)
        and c                           ; down now, not down last frame
        ld (hl), c
        inc hl
        ld c, a
        ld b, e
_bit:
        srl c
        jr nc, _next_bit
        ld a, b
        cp KEY_ZERO
        jr nz, _queue
        ld a, (key_state)               ; CAPS SHIFT is bit 0 of half-row 0
        rrca
        ld a, KEY_ZERO
        jr nc, _queue
        ld a, KEY_DELETE
_queue:
        call queue_key
_next_bit:
        inc b
        ld a, c
        or a
        jr nz, _bit
        ld a, e
        add a, 5
        ld e, a
        rlc d                           ; next half-row; carry clear after 0x7F
        jr c, _row
        ret

; Called by isr: with the Kempston joystick chosen, queue its new presses.
; A port that reads with any of bits 5-7 set has no Kempston interface.
scan_kempston:
        ld a, (control)
        cp CONTROL_KEMPSTON
        ret nz
        in a, (0x1F)
        ld c, a
        and 0xE0
        ret nz
        ld a, c
        and 0x1F
        ld c, a
        ld hl, kempston_state
        xor (hl)
        and c
        ld (hl), c
        ld c, a
        ld b, 40
_kbit:
        srl c
        ld a, b
        call c, queue_key
        inc b
        ld a, c
        or a
        jr nz, _kbit
        ret

; Put key number A in the queue (dropped when the queue is full).
; Keeps BC, DE, HL.
queue_key:
        push hl
        push de
        ld e, a
        ld a, (key_tail)
        ld l, a
        inc a
        and KEY_QUEUE_SIZE - 1
        ld d, a
        ld a, (key_head)
        cp d
        jr z, _full
        ld a, d
        ld (key_tail), a
        ld h, 0
        ld a, e
        ld de, key_queue
        add hl, de
        ld (hl), a
_full:
        pop de
        pop hl
        ret

; Take the next key number from the queue: carry set when it is empty,
; else carry clear and A = key number. Keeps BC.
next_key:
        ld a, (key_tail)
        ld hl, key_head
        cp (hl)
        scf
        ret z
        ld a, (hl)
        ld e, a
        inc a
        and KEY_QUEUE_SIZE - 1
        ld (hl), a
        ld d, 0
        ld hl, key_queue
        add hl, de
        ld a, (hl)
        or a
        ret

; Take the next key as a character (see key_chars): carry set when none.
; Keeps BC.
read_char:
        call next_key
        ret c
        ld e, a
        ld d, 0
        ld hl, key_chars
        add hl, de
        ld a, (hl)
        or a                            ; clear carry
        ret

; Forget every key pressed so far.
flush_keys:
        ld a, (key_tail)
        ld (key_head), a
        ret
