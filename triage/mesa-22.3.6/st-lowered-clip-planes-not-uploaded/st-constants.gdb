# Logs, per draw, the TES's variants (key.lower_ucp: the enabled planes lowered into the shader),
# the TES's parameter count, whether its affected_states and the context's active_states have
# ST_NEW_TES_CONSTANTS, and each upload of the TES's constants (the clip planes among them).
# Needs the state tracker with debug information (gdb.sh). Works on 22.3.6 and 25.0.7.
set pagination off
set breakpoint pending on
set print thread-events off
handle SIGPIPE nostop noprint pass
break _mesa_DrawArrays
commands
  silent
  printf "DRAW\n"
  continue
end
break st_create_common_variant
commands
  silent
  printf "  CREATE_VARIANT prog=%p stage=%d key.lower_ucp=0x%x NumParameters(before)=%d\n", prog, prog->info.stage, key->lower_ucp, prog->Parameters->NumParameters
  continue
end
break st_update_tep
commands
  silent
  printf "  UPDATE_TEP TES=%p NumParameters=%d affected_states.TES_CONSTANTS=%d active_states.TES_CONSTANTS=%d\n", st->ctx->TessEvalProgram._Current, st->ctx->TessEvalProgram._Current->Parameters->NumParameters, (int)((st->ctx->TessEvalProgram._Current->affected_states >> ST_NEW_TES_CONSTANTS_INDEX) & 1), (int)((st->active_states >> ST_NEW_TES_CONSTANTS_INDEX) & 1)
  continue
end
break st_update_tes_constants
commands
  silent
  printf "  UPLOAD_TES_CONSTANTS NumParameters=%d\n", st->ctx->TessEvalProgram._Current->Parameters->NumParameters
  continue
end
run
quit
