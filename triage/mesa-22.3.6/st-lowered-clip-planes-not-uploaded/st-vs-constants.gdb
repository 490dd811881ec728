# The VS counterpart of st-constants.gdb, for the harness's baselined cases (baselined-cases/):
# per draw, the VS variants (key.lower_ucp) and each upload of the VS's constants.
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
  printf "  CREATE_VARIANT prog=%p stage=%d key.lower_ucp=0x%x NumParameters(before)=%d affected_states.VS_CONSTANTS=%d\n", prog, prog->info.stage, key->lower_ucp, prog->Parameters->NumParameters, (int)((prog->affected_states >> ST_NEW_VS_CONSTANTS_INDEX) & 1)
  continue
end
break st_update_vs_constants
commands
  silent
  printf "  UPLOAD_VS_CONSTANTS NumParameters=%d\n", st->ctx->VertexProgram._Current->Parameters->NumParameters
  continue
end
run
quit
