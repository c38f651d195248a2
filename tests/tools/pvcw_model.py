#!/usr/bin/env python3
"""pvcw_model.py - a lane-by-lane model of gpu/cuda/pvc_bn_warp.cuh.

The warp-cooperative Montgomery product, doubling and exponentiation run
only on a GPU; this model follows the CUDA code step for step (32 lanes,
K limbs per lane, the shuffles as list indexing, the ballots as bit masks)
and checks it against Python's integers on random and edge-case inputs:
products for 1..64 limbs (all-ones moduli, a = R - 1), doubling,
fixed-window exponentiations, the plain product pvcw_mul1, and the
right-to-left bucket exponentiation of gpu/cuda/pvc_pair.cuh (a lone RSA
request's halves on two blocks: digits, buckets, their combination).  It checks
the algorithm, so a change to the lane algorithm in the .cuh is made here
first; the CUDA code itself is checked on the device (gpu_bench pk, the
RSA suites).
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
# pvcw_mul1: a b in 2 nl limbs (nl <= 32, one limb a lane), lo / hi halves
def mul1(a,b,nl):
    t=[0]*32; c=[0]*32; lo=[0]*32
    for i in range(nl):
        ai=a[i]
        w=[0]*32
        for L in lanes():
            p=ai*b[L]+t[L]
            assert p < (1<<64)
            w[L]=p&M32; c[L]+=p>>32
        li=w[0]; lo[i]=li
        for L in lanes():
            up=0 if L==31 else w[L+1]
            s=up+c[L]; t[L]=s&M32; c[L]=s>>32
    g=[0]*32; pf=[0]*32; tt=[0]*32
    for L in lanes():
        ci=(c[L-1]&M32) if L>0 else 0
        s=t[L]+ci; tt[L]=s&M32; g[L]=s>>32; pf[L]=1 if tt[L]==M32 else 0
    cin,cout=chain(ballot(g),ballot(pf),1)
    hi=[(tt[L]+bit(cin,0,L))&M32 for L in lanes()]
    return lo,hi
# limbs near the carries' edges: the high half's one-bit carries (the
# ballot chain) occur with them, almost never with uniform limbs
EDGE=[0,1,M32,M32-1,1<<31,(1<<31)-1]
def edgy(nl): return sum((random.choice(EDGE) if random.random()<0.7 else random.getrandbits(32))<<(32*i) for i in range(nl))
for trial in range(3000):
    nl=random.choice([1,2,3,4,8,16,31,32])
    a=random.getrandbits(32*nl); b=random.getrandbits(32*nl)
    if trial%2==1: a=edgy(nl); b=edgy(nl)
    if trial%5==0: a=b=(1<<(32*nl))-1              # every carry chain at once
    if trial%7==0: a=(1<<(32*nl))-1; b=1
    A=limbs(a,nl)+[0]*(32-nl); B=limbs(b,nl)+[0]*(32-nl)
    lo,hi=mul1(A,B,nl)
    got=sum(lo[i]<<(32*i) for i in range(nl))+sum(hi[L]<<(32*(nl+L)) for L in range(nl))
    assert got==a*b,(trial,nl)
    assert all(hi[L]==0 for L in range(nl,32)),(trial,'above 2 nl')
print("pvcw_model: 3000 warp products a b (1..32 limbs) equal to Python's")
# modexp
def modexp(x,e_limbs,ebits,r2,m,nl,m0i,K):
    Mv=ld(m,nl,K); R2=ld(r2,nl,K); X=ld(x,nl,K)
    one=[[1 if (k==0 and L==0) else 0 for k in range(K)] for L in lanes()]
    tab=[None]*16; r=[[0]*K for L in lanes()]
    for s in range(16):
        acc = one if s==0 else (X if s==1 else r)
        b = R2 if s<2 else tab[1]
        r=mm(acc,b,Mv,nl,m0i,K); tab[s]=r
    acc=tab[0]; nw=(ebits+3)//4
    for w in range(nw,0,-1):
        pos=4*(w-1); bits=(e_limbs[pos>>5]>>(pos&31))&15
        sel=tab[bits]
        for s in range(4 if w==nw else 0,5):
            b = acc if s<4 else sel
            acc=mm(acc,b,Mv,nl,m0i,K)
    return tonum(mm(acc,one,Mv,nl,m0i,K),K)
for trial in range(4):
    nl=[1,4,16,32][trial]
    m=random.getrandbits(32*nl)|1|(1<<(32*nl-1))
    R=1<<(32*nl); x=random.randrange(m)
    el=min(nl+2, 3); e=random.getrandbits(32*el)
    r2=R*R%m
    got=modexp(limbs(x,nl),limbs(e,el),32*el,limbs(r2,nl),limbs(m,nl),nl,ninv(m&M32),1)
    assert got==pow(x,e,m),trial
print("pvcw_model: 4 exponentiations (1..32 limbs) equal to pow(); passed")
# pvcx (pvc_pair.cuh): right to left with W-bit digits (Yao; W = 2, the
# vault's, or 4), the squarings y_j = mont(x)^(2^(W j)) on one side, the
# buckets on the other; the digits read from the job's exponent words
# padded with one zero word
def modexp_pair(x,e_limbs,ebits,r2,m,nl,m0i,EW,W):
    Mv=ld(m,nl,1); R2=ld(r2,nl,1); X=ld(x,nl,1)
    one=[[1 if L==0 else 0] for L in lanes()]
    ew=(ebits+31)//32
    xe=[(e_limbs[i] if i<ew else 0) for i in range(EW)]+[0]
    nw_sq=(ebits+W-1)//W
    eb=ebits
    nw=((eb+W-1) if eb<32*EW else 32*EW)//W
    assert nw==nw_sq
    ys=[]; y=mm(X,R2,Mv,nl,m0i,1)
    for j in range(nw_sq):
        ys.append(y)
        if j+1<nw_sq:
            for k in range(W): y=mm(y,y,Mv,nl,m0i,1)
    r=mm(one,R2,Mv,nl,m0i,1); bk=[r]*(1<<W)
    for j in range(nw):
        pos=W*j; dg=(xe[pos>>5]>>(pos&31))&((1<<W)-1)
        bk[dg]=mm(bk[dg],ys[j],Mv,nl,m0i,1)
    top=(1<<W)-1
    A=bk[top]; C=bk[top]
    for k in range(top-1,0,-1):
        C=mm(C,bk[k],Mv,nl,m0i,1); A=mm(A,C,Mv,nl,m0i,1)
    return tonum(mm(A,one,Mv,nl,m0i,1),1)
n=0
for W in (2,4):
    for trial,(nl,ebits) in enumerate([(2,1088),(3,1085),(4,1057),(32,70),(32,33),(1,4),(1,1)]):
        m=random.getrandbits(32*nl)|1|(1<<(32*nl-1))
        R=1<<(32*nl); x=random.randrange(m)
        e=random.getrandbits(ebits)|(1<<(ebits-1))
        r2=R*R%m
        got=modexp_pair(limbs(x,nl),limbs(e,(ebits+31)//32),ebits,limbs(r2,nl),limbs(m,nl),nl,ninv(m&M32),34,W)
        assert got==pow(x,e,m),(W,trial,nl,ebits)
        n+=1
print("pvcw_model: %d right-to-left bucket exponentiations (pvc_pair.cuh; 2- and 4-bit digits) equal to pow(); passed"%n)
