/* A small Vulkan layer: logs each indexed draw's indexCount and the index values it reads (read
 * from the persistently mapped memory when the draw is recorded) to $POLY_LOG. Triage evidence for
 * primconvert-restart-stale-indices (trace.sh builds and loads it), not part of the harness. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>
#include <vulkan/vulkan.h>
#include <vulkan/vk_layer.h>

#define EXPORT __attribute__((visibility("default")))
static FILE *logf_;
static FILE *lg(void) {
   if (!logf_) {
      /* POLY_PER_PROCESS: one file per process (LOG.<pid>), for runs with several executor children */
      const char *p = getenv("POLY_LOG");
      char name[4096];
      snprintf(name, sizeof name, getenv("POLY_PER_PROCESS") ? "%s.%d" : "%s", p ? p : "/tmp/poly.log", (int)getpid());
      logf_ = fopen(name, "a");
      setvbuf(logf_, NULL, _IOLBF, 0);
   }
   return logf_;
}
static PFN_vkGetInstanceProcAddr next_gipa;
static PFN_vkGetDeviceProcAddr next_gdpa;
static PFN_vkMapMemory next_map;
static PFN_vkBindBufferMemory next_bind;
static PFN_vkCmdBindIndexBuffer next_bindib;
static PFN_vkCmdDrawIndexed next_draw;
static PFN_vkCmdDrawMultiIndexedEXT next_multi;
static PFN_vkCmdSetPrimitiveTopology next_topo;
static PFN_vkCmdSetPrimitiveRestartEnable next_pre;

#define N 65536
struct kv { uint64_t k, a, b; int t; };
static struct kv maps[N], bufs[N], cmds[N];
static struct kv *slot(struct kv *t, uint64_t k) {
   uint64_t h = (k * 0x9E3779B97F4A7C15ull) >> 48;
   for (unsigned i = 0; i < N; i++) {
      struct kv *e = &t[(h + i) % N];
      if (e->k == k || e->k == 0) { e->k = k; return e; }
   }
   return &t[0];
}

static VKAPI_ATTR VkResult VKAPI_CALL my_map(VkDevice d, VkDeviceMemory m, VkDeviceSize off, VkDeviceSize sz, VkMemoryMapFlags f, void **pp) {
   VkResult r = next_map(d, m, off, sz, f, pp);
   if (r == VK_SUCCESS) { struct kv *e = slot(maps, (uint64_t)m); e->a = (uint64_t)(uintptr_t)*pp - off; }
   return r;
}
static VKAPI_ATTR VkResult VKAPI_CALL my_bind(VkDevice d, VkBuffer b, VkDeviceMemory m, VkDeviceSize off) {
   struct kv *e = slot(bufs, (uint64_t)b); e->a = (uint64_t)m; e->b = off;
   return next_bind(d, b, m, off);
}
static VKAPI_ATTR void VKAPI_CALL my_bindib(VkCommandBuffer c, VkBuffer b, VkDeviceSize off, VkIndexType t) {
   struct kv *e = slot(cmds, (uint64_t)(uintptr_t)c); e->a = (uint64_t)b; e->b = off; e->t = t;
   next_bindib(c, b, off, t);
}
static VKAPI_ATTR void VKAPI_CALL my_topo(VkCommandBuffer c, VkPrimitiveTopology t) {
   fprintf(lg(), "topology %d\n", t);
   next_topo(c, t);
}
static VKAPI_ATTR void VKAPI_CALL my_pre(VkCommandBuffer c, VkBool32 on) {
   fprintf(lg(), "restart %u\n", on);
   next_pre(c, on);
}
static void dump(const char *entry, VkCommandBuffer c, uint32_t count, uint32_t first, int32_t vo) {
   struct kv *e = slot(cmds, (uint64_t)(uintptr_t)c);
   struct kv *b = slot(bufs, e->a);
   struct kv *m = slot(maps, b->a);
   fprintf(lg(), "%s indexCount=%u firstIndex=%u vertexOffset=%d indexType=%d", entry, count, first, vo, e->t);
   if (m->a && count <= 256) {
      const uint8_t *p = (const uint8_t *)(uintptr_t)(m->a + b->b + e->b);
      fprintf(lg(), " indices:");
      for (uint32_t i = 0; i < count; i++) {
         uint32_t v = e->t == VK_INDEX_TYPE_UINT16 ? ((const uint16_t *)p)[first + i]
                    : e->t == VK_INDEX_TYPE_UINT32 ? ((const uint32_t *)p)[first + i] : p[first + i];
         fprintf(lg(), " %u", v);
      }
   }
   fprintf(lg(), "\n");
}
/* $POLY_COUNTS="24:18,16:12": record a draw of indexCount 24 with 18 instead (and so on): the count
 * u_primconvert wrote, a simulated fix for the cases of trace.sh (off when unset) */
static uint32_t fixed_count(uint32_t count) {
   const char *p = getenv("POLY_COUNTS");
   unsigned from, to;
   int n;
   while (p && sscanf(p, "%u:%u%n", &from, &to, &n) == 2) {
      if (from == count) {
         fprintf(lg(), "indexCount %u recorded as %u\n", count, to);
         return to;
      }
      p += n;
      if (*p == ',') p++;
   }
   return count;
}
static VKAPI_ATTR void VKAPI_CALL my_draw(VkCommandBuffer c, uint32_t count, uint32_t inst, uint32_t first, int32_t vo, uint32_t fi) {
   dump("vkCmdDrawIndexed", c, count, first, vo);
   count = fixed_count(count);
   next_draw(c, count, inst, first, vo, fi);
}
static VKAPI_ATTR void VKAPI_CALL my_multi(VkCommandBuffer c, uint32_t n, const VkMultiDrawIndexedInfoEXT *info, uint32_t inst, uint32_t fi, uint32_t stride, const int32_t *vo) {
   VkMultiDrawIndexedInfoEXT copy[64];
   for (uint32_t i = 0; i < n; i++) {
      const VkMultiDrawIndexedInfoEXT *d = (const void *)((const char *)info + i * stride);
      dump("vkCmdDrawMultiIndexedEXT", c, d->indexCount, d->firstIndex, vo ? *vo : d->vertexOffset);
      if (i < 64) { copy[i] = *d; copy[i].indexCount = fixed_count(d->indexCount); }
   }
   if (n <= 64)
      next_multi(c, n, copy, inst, fi, sizeof(copy[0]), vo);
   else
      next_multi(c, n, info, inst, fi, stride, vo);
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL poly_GetDeviceProcAddr(VkDevice d, const char *name);
EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL poly_GetInstanceProcAddr(VkInstance i, const char *name);

static VKAPI_ATTR VkResult VKAPI_CALL my_create_instance(const VkInstanceCreateInfo *ci, const VkAllocationCallbacks *a, VkInstance *pi) {
   VkLayerInstanceCreateInfo *l = (VkLayerInstanceCreateInfo *)ci->pNext;
   while (l && !(l->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && l->function == VK_LAYER_LINK_INFO))
      l = (VkLayerInstanceCreateInfo *)l->pNext;
   if (!l) return VK_ERROR_INITIALIZATION_FAILED;
   next_gipa = l->u.pLayerInfo->pfnNextGetInstanceProcAddr;
   l->u.pLayerInfo = l->u.pLayerInfo->pNext;
   PFN_vkCreateInstance create = (PFN_vkCreateInstance)next_gipa(NULL, "vkCreateInstance");
   return create(ci, a, pi);
}
static VKAPI_ATTR VkResult VKAPI_CALL my_create_device(VkPhysicalDevice pd, const VkDeviceCreateInfo *ci, const VkAllocationCallbacks *a, VkDevice *pdev) {
   VkLayerDeviceCreateInfo *l = (VkLayerDeviceCreateInfo *)ci->pNext;
   while (l && !(l->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && l->function == VK_LAYER_LINK_INFO))
      l = (VkLayerDeviceCreateInfo *)l->pNext;
   if (!l) return VK_ERROR_INITIALIZATION_FAILED;
   PFN_vkGetInstanceProcAddr gipa = l->u.pLayerInfo->pfnNextGetInstanceProcAddr;
   next_gdpa = l->u.pLayerInfo->pfnNextGetDeviceProcAddr;
   l->u.pLayerInfo = l->u.pLayerInfo->pNext;
   PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(NULL, "vkCreateDevice");
   VkResult r = create(pd, ci, a, pdev);
   if (r != VK_SUCCESS) return r;
   VkDevice d = *pdev;
   next_map = (PFN_vkMapMemory)next_gdpa(d, "vkMapMemory");
   next_bind = (PFN_vkBindBufferMemory)next_gdpa(d, "vkBindBufferMemory");
   next_bindib = (PFN_vkCmdBindIndexBuffer)next_gdpa(d, "vkCmdBindIndexBuffer");
   next_draw = (PFN_vkCmdDrawIndexed)next_gdpa(d, "vkCmdDrawIndexed");
   next_multi = (PFN_vkCmdDrawMultiIndexedEXT)next_gdpa(d, "vkCmdDrawMultiIndexedEXT");
   next_topo = (PFN_vkCmdSetPrimitiveTopology)next_gdpa(d, "vkCmdSetPrimitiveTopology");
   if (!next_topo) next_topo = (PFN_vkCmdSetPrimitiveTopology)next_gdpa(d, "vkCmdSetPrimitiveTopologyEXT");
   next_pre = (PFN_vkCmdSetPrimitiveRestartEnable)next_gdpa(d, "vkCmdSetPrimitiveRestartEnable");
   if (!next_pre) next_pre = (PFN_vkCmdSetPrimitiveRestartEnable)next_gdpa(d, "vkCmdSetPrimitiveRestartEnableEXT");
   fprintf(lg(), "device created\n");
   return r;
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL poly_GetDeviceProcAddr(VkDevice d, const char *name) {
#define W(n, f, nx) if (!strcmp(name, n)) { if (!nx) return next_gdpa(d, name); return (PFN_vkVoidFunction)f; }
   if (!strcmp(name, "vkGetDeviceProcAddr")) return (PFN_vkVoidFunction)poly_GetDeviceProcAddr;
   W("vkMapMemory", my_map, next_map)
   W("vkBindBufferMemory", my_bind, next_bind)
   W("vkCmdBindIndexBuffer", my_bindib, next_bindib)
   W("vkCmdDrawIndexed", my_draw, next_draw)
   W("vkCmdDrawMultiIndexedEXT", my_multi, next_multi)
   W("vkCmdSetPrimitiveTopology", my_topo, next_topo)
   W("vkCmdSetPrimitiveTopologyEXT", my_topo, next_topo)
   W("vkCmdSetPrimitiveRestartEnable", my_pre, next_pre)
   W("vkCmdSetPrimitiveRestartEnableEXT", my_pre, next_pre)
   return next_gdpa(d, name);
}
EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL poly_GetInstanceProcAddr(VkInstance i, const char *name) {
   if (!strcmp(name, "vkGetInstanceProcAddr")) return (PFN_vkVoidFunction)poly_GetInstanceProcAddr;
   if (!strcmp(name, "vkCreateInstance")) return (PFN_vkVoidFunction)my_create_instance;
   if (!strcmp(name, "vkCreateDevice")) return (PFN_vkVoidFunction)my_create_device;
   if (!strcmp(name, "vkGetDeviceProcAddr")) return (PFN_vkVoidFunction)poly_GetDeviceProcAddr;
   return next_gipa(i, name);
}
