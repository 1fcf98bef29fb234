; LOGO PRACTICE - a free re-creation of Logo: Part 1 for the 48K ZX Spectrum,
; written for logo-bot. Assembled by pasmo (--alocal: labels starting with "_"
; are local to the label before them) from game/build.py, which generates the
; included files under game/build/gen/ from the data files in game/.
;
; Memory map
;   0x4000-0x5AFF  screen (bitmap and attributes)
;   0x8000-        this program: code, then data (font, tiles, texts, levels),
;                  then variables
;   0xFC00-0xFCFF  stack (SP starts at 0xFD00)
;   0xFDFD-0xFDFF  JP isr (the IM 2 interrupt target)
;   0xFE00-0xFF00  IM 2 vector table: 257 bytes of 0xFD, filled at start-up
;
; No ROM routine is called: own font, own keyboard reading, own interrupts,
; so the game runs the same with the OpenSE BASIC ROM and the Sinclair ROM.

        INCLUDE "config.asm"
        INCLUDE "keyreading.asm"

        ORG 0x8000

start:
        di
        ld sp, STACK_TOP
        call init_interrupts
        ld a, BORDER
        out (0xFE), a
        call init_settings
main_loop:
        call title_screen
        call menu_screen
        call play_game
        jr main_loop

        INCLUDE "interrupts.asm"
        INCLUDE "keyboard.asm"
        INCLUDE "text.asm"
        INCLUDE "board.asm"
        INCLUDE "panel.asm"
        INCLUDE "levels.asm"
        INCLUDE "menu.asm"
        INCLUDE "game.asm"
        INCLUDE "sound.asm"

; ---- generated data ------------------------------------------------------
        INCLUDE "table_data.asm"
        INCLUDE "font_data.asm"
        INCLUDE "tile_data.asm"
        INCLUDE "text_data.asm"
        INCLUDE "level_data.asm"

; ---- variables -----------------------------------------------------------
        INCLUDE "vars.asm"
program_end:

        IF program_end > STACK_BOTTOM
        .ERROR program overlaps the stack
        ENDIF

        END start
