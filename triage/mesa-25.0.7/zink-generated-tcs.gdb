set logging file @LOG@
set logging overwrite on
set logging redirect on
set logging enabled on
set pagination off
set breakpoint pending on
set print thread-events off
handle SIGPIPE nostop noprint pass
break zink_create_gfx_program
commands
  silent
  printf "CREATE_PROG stages: vs=%p tcs=%p tes=%p gs=%p fs=%p vpp=%d\n", stages[0], stages[1], stages[2], stages[3], stages[4], vertices_per_patch
  continue
end
break zink_program.c:1177
commands
  silent
  printf "TCS_INIT prog=%p tcs_zs=%p tcs_zs->nir=%p tes_zs=%p\n", prog, prog->shaders[1], prog->shaders[1]->nir, prog->shaders[2]
  continue
end
break zink_shader_tcs_create
commands
  silent
  printf "TCS_CREATE vpp=%d\n", vertices_per_patch
  bt 3
  continue
end
break zink_gfx_shader_free
commands
  silent
  printf "SHADER_FREE zs=%p stage=%d nir=%p generated_tcs=%p\n", shader, shader->info.stage, shader->nir, shader->info.stage == 2 ? shader->non_fs.generated_tcs : 0
  continue
end
break zink_destroy_gfx_program
commands
  silent
  printf "DESTROY_PROG %p\n", prog
  continue
end
break _mesa_DeleteProgram
commands
  silent
  printf "glDeleteProgram\n"
  continue
end
break zink_program.c:1188 if i == 1
commands
  silent
  printf "FREE_NIR prog=%p nir[1]=%p\n", prog, nir[1]
  continue
end
run
printf "STOPPED\n"
bt 20
kill
quit
