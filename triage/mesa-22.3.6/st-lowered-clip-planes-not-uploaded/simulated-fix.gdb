# Simulated fix (no rebuild): after the state tracker updates the VS, TES or GS variant of a draw
# (st_update_vp/tep/gp), upload that stage's constants too, as a ST_NEW_*_CONSTANTS bit would. Every
# reproducer of sequences 1 and 2 passes with it (README; not 22.3.6's plane-equation-change, which makes no
# variant). Needs the state tracker with debug information.
set pagination off
set breakpoint pending on
set print thread-events off
handle SIGPIPE nostop noprint pass
# Simulated fix: whenever the state tracker updates the TES/VS/GS variant for a draw, also upload
# that stage's constants after it (what a ST_NEW_*_CONSTANTS bit would do).
break st_update_tep
commands
  silent
  set $st = st
  tbreak *(*(void**)$sp)
  commands
    silent
    call (void)st_update_tes_constants($st)
    printf "  FIX: TES constants uploaded after st_update_tep\n"
    continue
  end
  continue
end
break st_update_vp
commands
  silent
  set $stv = st
  tbreak *(*(void**)$sp)
  commands
    silent
    call (void)st_update_vs_constants($stv)
    printf "  FIX: VS constants uploaded after st_update_vp\n"
    continue
  end
  continue
end
break st_update_gp
commands
  silent
  set $stg = st
  tbreak *(*(void**)$sp)
  commands
    silent
    call (void)st_update_gs_constants($stg)
    printf "  FIX: GS constants uploaded after st_update_gp\n"
    continue
  end
  continue
end
run
quit
