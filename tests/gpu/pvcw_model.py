#!/usr/bin/env python3
"""pvcw_model.py - a lane-by-lane model of gpu/cuda/pvc_bn_warp.cuh.

The warp-cooperative Montgomery product, doubling and exponentiation run
only on a GPU; this model follows the CUDA code step for step (32 lanes,
K limbs per lane, the shuffles as list indexing, the ballots as bit masks)
and checks it against Python's integers on random and edge-case inputs:
products for 1..64 limbs (all-ones moduli, a = R - 1), doubling, and
fixed-window exponentiations.  It checks the algorithm, so a change to the
lane algorithm in the .cuh is made here first; the CUDA code itself is
checked on the device (gpu_bench pk, the RSA suites).
"""
import random
M32=(1<<32)-1
def lanes(): return range(32)
def ballot(f): return sum((1<<L) for L in lanes() if f[L])
def ld(a, nl, K): return [[ (a[32*k+L] if 32*k+L<nl else 0) for k in range(K)] for L in lanes()]
def ballotK(f,K): 
    r=0
    for k in range(K): r |= ballot([f[L][k] for L in lanes()]) << (32*k)
    return r
def chain(G,P,K):
    top=32*K-1
    cin=(((G<<1)+P) & ((1<<64)-1)) ^ P
    out=((G>>top) | ((P>>top)&(cin>>top))) & 1
    return cin,out
def bit(mask,k,L): return (mask >> (32*k+L)) & 1
def csub(t,m,top,K):
    x=[[ (t[L][k]-m[L][k]) & M32 for k in range(K)] for L in lanes()]
    bo=[[ 1 if t[L][k]<m[L][k] else 0 for k in range(K)] for L in lanes()]
    z=[[ 1 if x[L][k]==0 else 0 for k in range(K)] for L in lanes()]
    bin_,bout=chain(ballotK(bo,K),ballotK(z,K),K)
    mask=(0-(top|(bout^1))) & M32
    d=[[0]*K for L in lanes()]
    for L in lanes():
        for k in range(K):
            xx=(x[L][k]-bit(bin_,k,L)) & M32
            d[L][k]=t[L][k]^(mask&(t[L][k]^xx))
    return d
def mm(a,b,m,nl,m0i,K):
    t=[[0]*K for L in lanes()]; c=[[0]*K for L in lanes()]
    b0=b[0][0]; t0=0
    for i in range(nl):
        ak=[a[L][0] if not (K>1 and i>=32) else a[L][K-1] for L in lanes()]
        ai=ak[i&31]
        q=((t0+ai*b0)*m0i)&M32
        for L in lanes():
            for k in range(K):
                p=ai*b[L][k]+t[L][k]
                p2=q*m[L][k]+(p&M32)
                t[L][k]=p2&M32
                c[L][k]+= (p>>32)+(p2>>32)
                assert c[L][k] < (1<<64)
        v=[[t[(L+1)&31][k] for k in range(K)] for L in lanes()]
        t0=(t[1][0]+(c[0][0]&M32))&M32
        for L in lanes():
            for k in range(K):
                up = (v[L][k+1] if k+1<K else 0) if L==31 else v[L][k]
                s=up+c[L][k]
                t[L][k]=s&M32; c[L][k]=s>>32
    topc=c[31][K-1]&M32
    g=[[0]*K for L in lanes()]; pf=[[0]*K for L in lanes()]
    for k in range(K):
        for L in lanes():
            ci = (c[L-1][k]&M32) if L>0 else ((c[31][k-1]&M32) if k>0 else 0)
            s=t[L][k]+ci
            t[L][k]=s&M32; g[L][k]=s>>32; pf[L][k]=1 if t[L][k]==M32 else 0
    # note: python computes ci from pre-update c (c not updated) fine
    cin,cout=chain(ballotK(g,K),ballotK(pf,K),K)
    for L in lanes():
        for k in range(K): t[L][k]=(t[L][k]+bit(cin,k,L))&M32
    return csub(t,m,topc+cout,K)
def dbl(x,m,K):
    hi=[[x[L][k]>>31 for k in range(K)] for L in lanes()]
    top=hi[31][K-1]
    t=[[0]*K for L in lanes()]
    for k in range(K):
        for L in lanes():
            inn = hi[L-1][k] if L>0 else (hi[31][k-1] if k>0 else 0)
            t[L][k]=((x[L][k]<<1)&M32)|inn
    return csub(t,m,top,K)
def tonum(v,K): return sum(v[L][k] << (32*(32*k+L)) for L in lanes() for k in range(K))
def limbs(n,nl): return [(n>>(32*i))&M32 for i in range(nl)]
def ninv(m0): return (-pow(m0,-1,1<<32)) & M32
random.seed(1)
for trial in range(150):
    nl=random.choice([1,2,5,16,31,32,33,48,63,64])
    K=1 if nl<=32 else 2
    bits=32*nl - random.choice([0,0,1,7,31])
    m=random.getrandbits(bits)|1|(1<<(bits-1))
    if random.random()<0.2: m=(1<<(32*nl))-random.choice([1,3,5])   # top limbs all ones
    R=1<<(32*nl)
    a=random.randrange(R) if random.random()<0.5 else random.randrange(m)
    b=random.randrange(m)
    if random.random()<0.2: a=R-1; b=m-1
    A=ld(limbs(a,nl),nl,K); B=ld(limbs(b,nl),nl,K); Mv=ld(limbs(m,nl),nl,K)
    d=tonum(mm(A,B,Mv,nl,ninv(m&M32),K),K)
    exp=a*b*pow(R,-1,m)%m
    assert d==exp,(trial,nl,hex(d),hex(exp))
    x=random.randrange(m)
    dd=tonum(dbl(ld(limbs(x,nl),nl,K),Mv,K),K)
    assert dd==2*x%m,(trial,'dbl')
print("pvcw_model: 150 products and doublings (1..64 limbs) equal to Python's integers")
# modexp: pvcw_modexp's fixed windows of WIN bits from the top (PVCW_WIN)
WIN=5
def modexp(x,e_limbs,ebits,r2,m,nl,m0i,K):
    Mv=ld(m,nl,K); R2=ld(r2,nl,K); X=ld(x,nl,K)
    one=[[1 if (k==0 and L==0) else 0 for k in range(K)] for L in lanes()]
    tab=[None]*(1<<WIN); r=[[0]*K for L in lanes()]
    for s in range(1<<WIN):
        acc = one if s==0 else (X if s==1 else r)
        b = R2 if s<2 else tab[1]
        r=mm(acc,b,Mv,nl,m0i,K); tab[s]=r
    acc=tab[0]; nw=(ebits+WIN-1)//WIN; ew=(ebits+31)//32
    for w in range(nw,0,-1):
        pos=WIN*(w-1); li=pos>>5; sh=pos&31
        bits=e_limbs[li]>>sh
        if sh>32-WIN and li+1<ew: bits|=(e_limbs[li+1]<<(32-sh))&M32
        bits&=(1<<WIN)-1
        sel=tab[bits]
        for s in range(WIN if w==nw else 0,WIN+1):
            b = acc if s<WIN else sel
            acc=mm(acc,b,Mv,nl,m0i,K)
    return tonum(mm(acc,one,Mv,nl,m0i,K),K)
for trial in range(4):
    nl=[1,4,16,32][trial]
    m=random.getrandbits(32*nl)|1|(1<<(32*nl-1))
    R=1<<(32*nl); x=random.randrange(m)
    el=34 if nl==4 else min(nl+2, 3)    # 34: RSA-2048's blinded CRT exponent
    e=random.getrandbits(32*el)
    r2=R*R%m
    got=modexp(limbs(x,nl),limbs(e,el),32*el,limbs(r2,nl),limbs(m,nl),nl,ninv(m&M32),1)
    assert got==pow(x,e,m),trial
print("pvcw_model: 4 exponentiations (1..32 limbs) equal to pow(); passed")
